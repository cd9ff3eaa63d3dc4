import Dispatch
import Schedulers
import Testing

/// The operators on the schedulers users ship: a real Dispatch queue (bounded, short waits),
/// and the immediate scheduler, where every timer is due at once.
@Suite("Operators on real and immediate schedulers")
struct OperatorsOnRealAndImmediateSchedulersTests {
  @Test func debounceOnADispatchQueueEmitsTheLastOfABurst() async throws {
    // The burst is buffered before iteration starts, so the upstream task reads it in one go;
    // the only wait is the 200 ms quiet period, on the queue's real clock.
    let (upstream, continuation) = AsyncStream<Int>.makeStream()
    for value in 1...3 { continuation.yield(value) }
    let queue = DispatchQueue(label: "debounce")
    var iterator = upstream.debounce(for: .milliseconds(200), scheduler: queue).makeAsyncIterator()
    #expect(await iterator.next() == 3)
    continuation.finish()
    #expect(await iterator.next() == nil)
  }

  @Test func timeoutOnADispatchQueueFails() async throws {
    let (upstream, continuation) = AsyncStream<Int>.makeStream()
    let queue = DispatchQueue(label: "timeout")
    await #expect(throws: TimeoutError.self) {
      for try await _ in upstream.timeout(.milliseconds(50), scheduler: queue) {}
    }
    continuation.finish()
  }

  @Test func onTheImmediateSchedulerTimeCollapses() async throws {
    func elements() -> AsyncStream<Int> {
      AsyncStream { continuation in
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
      }
    }
    let immediate = DispatchQueue.immediate
    var debounced: [Int] = []
    for await value in elements().debounce(for: .seconds(1), scheduler: immediate) {
      debounced.append(value)
    }
    var delayed: [Int] = []
    for await value in elements().delay(for: .seconds(1), scheduler: immediate) {
      delayed.append(value)
    }
    #expect(debounced == [1, 2, 3])
    #expect(delayed == [1, 2, 3])
  }
}

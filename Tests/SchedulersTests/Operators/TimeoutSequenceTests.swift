import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// The timeout operator, in marbles: one frame is 100 ms and the interval 300 ms.
extension OperatorMarbleTables {
  @Suite("timeout(_:scheduler:)")
  struct TimeoutSequenceTests {
    static let frame = DispatchQueue.SchedulerTimeType.Stride.milliseconds(100)

    @Test(
      arguments: [
        // Three frames after c without an element: TimeoutError.
        ("a-b-c-----d|", "a-b-c--#"),
        // Elements and the finish in time.
        ("a-b-c|", "a-b-c|"),
        ("--|", "--|"),
        // Nothing ever: the timeout counts from the start.
        ("------", "---#"),
        ("", "---#"),
      ])
    func timesOut(input: String, expected: String) async throws {
      let result = try await expectMarbles(input: input, expected: expected, frame: Self.frame) {
        input, scheduler in
        input.timeout(.milliseconds(300), scheduler: scheduler)
      }
      if expected.hasSuffix("#") {
        #expect(result.failure is TimeoutError)
        #expect(result.failure.map { "\($0)" } == "The operation timed out.")
      }
    }

    enum FeedError: Error, Equatable { case stalled }

    @Test(
      arguments: [
        ("a-b-c-----d|", "a-b-c--#"),
        ("a-b-c|", "a-b-c|"),
        ("", "---#"),
      ])
    func aCustomErrorReplacesTimeoutError(input: String, expected: String) async throws {
      let made = Counter()
      let result = try await expectMarbles(input: input, expected: expected, frame: Self.frame) {
        input, scheduler in
        input.timeout(.milliseconds(300), scheduler: scheduler) {
          made.increment()
          return FeedError.stalled
        }
      }
      if expected.hasSuffix("#") {
        #expect(result.failure as? FeedError == .stalled)
        #expect(made.value == 1)  // made once, when the time is up
      } else {
        #expect(made.value == 0)
      }
    }

    @Test func withACustomErrorTheUpstreamsFailureStillPassesThrough() async throws {
      let result = try await expectMarbles(input: "a-#", expected: "a-#", frame: Self.frame) {
        input, scheduler in
        input.timeout(.milliseconds(300), scheduler: scheduler) { FeedError.stalled }
      }
      #expect(result.failure is MarbleFailure)
    }

    @Test func theUpstreamsFailurePassesThrough() async throws {
      let result = try await expectMarbles(input: "a-#", expected: "a-#", frame: Self.frame) {
        input, scheduler in
        input.timeout(.milliseconds(300), scheduler: scheduler)
      }
      #expect(result.failure is MarbleFailure)
    }

    @Test func anElementAtTheDeadlineArrivesInTime() async throws {
      // The upstream's element and the timer are due at the same instant; the element was
      // scheduled first, so it wins and restarts the interval.
      try await expectMarbles(input: "a--b--|", expected: "a--b--|", frame: Self.frame) {
        input, scheduler in
        input.timeout(.milliseconds(300), scheduler: scheduler)
      }
    }

    @Test func aTimeoutCancelsTheUpstream() async throws {
      let scheduler = DispatchQueue.test
      try await withDeterministicExecution(scheduler: scheduler) {
        let terminated = Counter()
        let (upstream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { _ in terminated.increment() }
        let consumer = Task {
          var received: [Int] = []
          for try await value in upstream.timeout(.seconds(1), scheduler: scheduler) {
            received.append(value)
          }
          return received
        }
        await scheduler.advance()
        continuation.yield(1)
        await scheduler.advance(by: .seconds(1))
        await #expect(throws: TimeoutError.self) { try await consumer.value }
        #expect(terminated.value == 1)
        #expect(scheduler.pendingActionCount == 0)
      }
    }

    @Test func cancellingMidIntervalReleasesEverything() async throws {
      try await expectCancellationMidIntervalReleasesEverything { upstream, scheduler in
        upstream.timeout(.seconds(1), scheduler: scheduler)
      }
    }
  }
}

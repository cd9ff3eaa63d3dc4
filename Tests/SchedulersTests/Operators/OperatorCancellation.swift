import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// Starts iterating `makeOperator(upstream)`, sends one element, cancels the consumer in the
/// middle of the operator's interval, and checks that the consumer ends, the upstream is
/// cancelled (its stream terminated), the operator's timer is gone from the scheduler, and
/// nothing is emitted later.
func expectCancellationMidIntervalReleasesEverything<Operated: AsyncSequence & Sendable>(
  _ makeOperator:
    @escaping @Sendable (AsyncStream<Int>, TestSchedulerOf<DispatchQueue>) ->
    Operated,
  sourceLocation: SourceLocation = #_sourceLocation
) async throws where Operated.Element == Int {
  let scheduler = DispatchQueue.test
  try await withDeterministicExecution(scheduler: scheduler) {
    let upstreamTerminated = Counter()
    let (upstream, continuation) = AsyncStream<Int>.makeStream()
    continuation.onTermination = { _ in upstreamTerminated.increment() }
    let received = Recorder<Int>()
    let consumer = Task {
      do {
        for try await value in makeOperator(upstream, scheduler) { received.append(value) }
      } catch {}
    }
    await scheduler.advance()
    continuation.yield(1)
    await scheduler.advance(by: .milliseconds(500))
    let emittedBeforeCancel = received.values
    let pendingBeforeCancel = scheduler.pendingActionCount

    consumer.cancel()
    await consumer.value
    #expect(upstreamTerminated.value == 1, sourceLocation: sourceLocation)
    #expect(scheduler.pendingActionCount == 0, sourceLocation: sourceLocation)
    #expect(pendingBeforeCancel == 1, "the operator's timer ran", sourceLocation: sourceLocation)

    await scheduler.advance(by: .seconds(10))
    #expect(received.values == emittedBeforeCancel, sourceLocation: sourceLocation)
  }
}

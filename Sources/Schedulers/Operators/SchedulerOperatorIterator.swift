/// The iterator of every time-based operator's sequence: ``SchedulerDebounceSequence``,
/// ``SchedulerThrottleSequence``, ``SchedulerDelaySequence``, ``SchedulerCollectSequence``,
/// ``SchedulerMeasureIntervalSequence`` and ``SchedulerTimeoutSequence``. Use it from one task
/// at a time.
///
/// ```swift
/// var iterator = queries.debounce(for: .milliseconds(300), scheduler: scheduler)
///   .makeAsyncIterator()
/// let first = await iterator.next()
/// ```
///
/// Releasing it (leaving a `for await` loop) ends the iteration: the operator's upstream task
/// and timer are cancelled.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct SchedulerOperatorIterator<Element, Failure: Error>: AsyncIteratorProtocol {
  // One iterator type for six operators, though each runs its own state machine: the machine
  // is an internal type, so it cannot be a generic parameter of a public type. A closure hides
  // it instead. The closure is made in `makeAsyncIterator`, which is inlinable, so its body
  // (the whole iteration) is still specialised in the caller's module; what the sharing costs
  // is one indirect call per element (docs/operators.md says how to count instructions per
  // element).
  @usableFromInline let nextOutput: () async throws(Failure) -> Element?

  @inlinable
  init<Base: AsyncSequence & Sendable, S: Scheduler & Sendable, Machine>(
    base: Base, scheduler: S, machine: Machine
  )
  where
    Base.Element: Sendable, Machine: TimedOperatorMachine, Machine.Input == Base.Element,
    Machine.UpstreamFailure == Base.Failure, Machine.Time == S.SchedulerTimeType,
    Machine.Element == Element, Machine.Failure == Failure,
    S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable
  {
    let iteration = TimedOperatorIteration(base: base, scheduler: scheduler, machine: machine)
    nextOutput = { () async throws(Failure) -> Element? in try await iteration.next() }
  }

  @inlinable
  public mutating func next() async throws(Failure) -> Element? {
    try await nextOutput()
  }

  @inlinable
  public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure)
    -> Element?
  {
    try await nextOutput()
  }
}

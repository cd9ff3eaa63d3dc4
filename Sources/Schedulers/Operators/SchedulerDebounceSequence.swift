@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits an element only after the upstream has been quiet for `interval` of `scheduler`'s
  /// time: each new element restarts the wait and replaces the one waiting.
  ///
  /// ```swift
  /// for await query in queries.debounce(for: .milliseconds(300), scheduler: scheduler) {
  ///   results = try await client.search(query)
  /// }
  /// ```
  ///
  /// With a frame of 100 ms and an interval of 300 ms:
  ///
  /// ```
  /// upstream:  abcd----e---f-g----|
  /// debounced: ------d----e-----g-|
  /// ```
  ///
  /// - When the upstream finishes with an element waiting, that element is emitted at once,
  ///   then the sequence finishes (as in RxJS and swift-async-algorithms; Combine drops it).
  /// - When the upstream fails, the waiting element is dropped and the failure passes at once.
  /// - An element that arrives at the very instant the wait ends restarts it.
  /// - The upstream is read from a task that starts with the iteration; cancelling the
  ///   consuming task, or leaving the loop, cancels that task and the pending timer.
  ///
  /// - Precondition: `interval` is not negative.
  public func debounce<S: Scheduler & Sendable>(
    for interval: S.SchedulerTimeType.Stride, scheduler: S
  ) -> SchedulerDebounceSequence<Self, S>
  where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
    precondition(
      interval >= .zero,
      "debounce(for:scheduler:) needs an interval of zero or more, got \(describeStride(interval))")
    return SchedulerDebounceSequence(base: self, interval: interval, scheduler: scheduler)
  }
}

/// An asynchronous sequence that emits an element once its upstream has been quiet for an
/// interval. Made by ``_Concurrency/AsyncSequence/debounce(for:scheduler:)``.
///
/// ```swift
/// let debounced: SchedulerDebounceSequence<AsyncStream<String>, AnySchedulerOf<DispatchQueue>> =
///   queries.debounce(for: .milliseconds(300), scheduler: scheduler)
/// ```
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct SchedulerDebounceSequence<Base: AsyncSequence & Sendable, S: Scheduler & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure
  public typealias AsyncIterator = SchedulerOperatorIterator<Element, Failure>

  @usableFromInline let base: Base
  @usableFromInline let interval: S.SchedulerTimeType.Stride
  @usableFromInline let scheduler: S

  init(base: Base, interval: S.SchedulerTimeType.Stride, scheduler: S) {
    self.base = base
    self.interval = interval
    self.scheduler = scheduler
  }

  // Inlinable, down to the operator's storage, so that the caller's module specialises the
  // whole iteration for its element and scheduler types: unspecialised, each event spent most
  // of its time looking up generic type metadata (docs/operators.md says how to measure it).
  @inlinable
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(
      base: base, scheduler: scheduler,
      machine: DebounceMachine(interval: interval))
  }
}

/// Debounce: keep the latest element; emit it when its timer fires.
@usableFromInline
struct DebounceMachine<Input: Sendable, UpstreamFailure: Error, Time: Strideable & Sendable>:
  CallbackOperatorMachine
where Time.Stride: Sendable {
  @usableFromInline typealias Element = Input
  @usableFromInline typealias Failure = UpstreamFailure
  @usableFromInline typealias Effects = TimedOperatorEffects<Input, UpstreamFailure, Time>

  @usableFromInline let interval: Time.Stride
  @usableFromInline var waiting: Input?

  @inlinable init(interval: Time.Stride) { self.interval = interval }

  @inlinable var holdsElement: Bool { waiting != nil }

  @inlinable
  mutating func received(_ input: Input, at now: Time) -> Effects {
    waiting = input
    return Effects(timer: .set(now.advanced(by: interval)))
  }

  @inlinable
  mutating func upstreamFinished(at now: Time) -> Effects {
    let last = waiting.take()
    return Effects(outputs: (last.map { [.element($0)] } ?? []) + [.finished], timer: .cancel)
  }

  @inlinable
  mutating func upstreamFailed(_ error: UpstreamFailure, at now: Time) -> Effects {
    waiting = nil
    return Effects(outputs: [.failed(error)], timer: .cancel)
  }

  @inlinable
  mutating func timerFired(at now: Time) -> Effects {
    Effects(outputs: waiting.take().map { [.element($0)] } ?? [])
  }
}

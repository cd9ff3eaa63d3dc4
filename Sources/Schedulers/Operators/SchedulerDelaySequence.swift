@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Shifts the whole sequence later by `interval` of `scheduler`'s time: each element, and
  /// the finish or failure, arrives `interval` after the upstream produced it.
  ///
  /// ```swift
  /// for await toast in toasts.delay(for: .seconds(2), scheduler: scheduler) {
  ///   show(toast)
  /// }
  /// ```
  ///
  /// With a frame of 100 ms and an interval of 300 ms:
  ///
  /// ```
  /// upstream: ab--c--|
  /// delayed:  ---ab--c--|
  /// ```
  ///
  /// - Failures are delayed like everything else, after the elements before them (as in
  ///   Combine; RxJS delivers an error at once and drops the elements still in flight).
  /// - The finish is delayed by the interval too, as in Combine: an empty upstream finishes one
  ///   interval late. RxJS 7 finishes once the source has finished and its last delayed element
  ///   is out.
  /// - Nothing is dropped: elements in flight wait in a buffer that grows with the number of
  ///   elements the upstream produces within one interval.
  /// - The upstream is read from a task that starts with the iteration; cancelling the
  ///   consuming task, or leaving the loop, cancels that task, drops the elements in flight
  ///   and cancels the pending timer.
  ///
  /// - Precondition: `interval` is not negative.
  public func delay<S: Scheduler & Sendable>(
    for interval: S.SchedulerTimeType.Stride, scheduler: S
  ) -> SchedulerDelaySequence<Self, S>
  where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
    precondition(
      interval >= .zero,
      "delay(for:scheduler:) needs an interval of zero or more, got \(describeStride(interval))")
    return SchedulerDelaySequence(base: self, interval: interval, scheduler: scheduler)
  }
}

/// An asynchronous sequence shifted later in time. Made by
/// ``_Concurrency/AsyncSequence/delay(for:scheduler:)``.
///
/// ```swift
/// let delayed = toasts.delay(for: .seconds(2), scheduler: scheduler)
/// ```
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct SchedulerDelaySequence<Base: AsyncSequence & Sendable, S: Scheduler & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure
  public typealias AsyncIterator = SchedulerOperatorIterator<Element, Failure>

  @usableFromInline let base: Base
  @usableFromInline let interval: S.SchedulerTimeType.Stride
  @usableFromInline let scheduler: S

  @inlinable
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(
      base: base, scheduler: scheduler,
      machine: DelayMachine(interval: interval))
  }
}

/// Delay: a FIFO of outputs with their due instants, and one timer for the head.
@usableFromInline
struct DelayMachine<Input: Sendable, UpstreamFailure: Error, Time: Strideable & Sendable>:
  TimedOperatorMachine
where Time.Stride: Sendable {
  @usableFromInline typealias Element = Input
  @usableFromInline typealias Failure = UpstreamFailure
  @usableFromInline typealias Effects = TimedOperatorEffects<Input, UpstreamFailure, Time>
  @usableFromInline typealias Output = TimedOperatorOutput<Input, UpstreamFailure>

  @usableFromInline let interval: Time.Stride
  @usableFromInline var inFlight: [(due: Time, output: Output)] = []
  @usableFromInline var head = 0

  @inlinable
  init(interval: Time.Stride) { self.interval = interval }

  @inlinable
  mutating func received(_ input: Input, at now: Time) -> Effects {
    enqueue(.element(input), at: now)
  }

  @inlinable
  mutating func upstreamFinished(at now: Time) -> Effects {
    enqueue(.finished, at: now)
  }

  @inlinable
  mutating func upstreamFailed(_ error: UpstreamFailure, at now: Time) -> Effects {
    enqueue(.failed(error), at: now)
  }

  @inlinable
  mutating func enqueue(_ output: Output, at now: Time) -> Effects {
    let due = now.advanced(by: interval)
    inFlight.append((due, output))
    return inFlight.count - head == 1 ? Effects(timer: .set(due)) : Effects()
  }

  /// Delivers the head and everything due with it; the timer fired for the head's instant.
  @inlinable
  mutating func timerFired(at now: Time) -> Effects {
    guard head < inFlight.count else { return Effects() }
    let due = inFlight[head].due
    var outputs: [Output] = []
    while head < inFlight.count, inFlight[head].due <= due {
      outputs.append(inFlight[head].output)
      head += 1
    }
    if head == inFlight.count {
      inFlight.removeAll(keepingCapacity: true)
      head = 0
      return Effects(outputs: outputs)
    }
    if head > 64, head * 2 > inFlight.count {
      inFlight.removeFirst(head)
      head = 0
    }
    return Effects(outputs: outputs, timer: .set(inFlight[head].due))
  }
}

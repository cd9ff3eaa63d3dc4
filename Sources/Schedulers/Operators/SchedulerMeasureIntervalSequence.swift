@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Replaces each element with the time between it and the one before, on `scheduler`'s
  /// clock; for the first element, the time since the iteration started. Combine's
  /// `measureInterval(using:)`.
  ///
  /// ```swift
  /// for await gap in keystrokes.measureInterval(using: scheduler) {
  ///   if gap < .milliseconds(50) { typingFast() }
  /// }
  /// ```
  ///
  /// With a frame of 100 ms:
  ///
  /// ```
  /// upstream:        -a--b(cd)-|
  /// measureInterval: -w--x(yz)-|    w = 100 ms, x = 300 ms, y = 100 ms, z = 0 ms
  /// ```
  ///
  /// - An element's interval ends when the operator receives it from the upstream, which it reads
  ///   in a task of its own: a slow consumer does not lengthen the intervals.
  /// - The finish and the upstream's failure pass through at once.
  /// - On an immediate scheduler every interval is zero.
  public func measureInterval<S: Scheduler & Sendable>(using scheduler: S)
    -> SchedulerMeasureIntervalSequence<Self, S>
  where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
    SchedulerMeasureIntervalSequence(base: self, scheduler: scheduler)
  }
}

/// An asynchronous sequence of the time between its upstream's elements. Made by
/// ``_Concurrency/AsyncSequence/measureInterval(using:)``.
///
/// ```swift
/// let gaps = keystrokes.measureInterval(using: scheduler)
/// ```
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct SchedulerMeasureIntervalSequence<
  Base: AsyncSequence & Sendable, S: Scheduler & Sendable
>: AsyncSequence, Sendable
where Base.Element: Sendable, S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  public typealias Element = S.SchedulerTimeType.Stride
  public typealias Failure = Base.Failure
  public typealias AsyncIterator = SchedulerOperatorIterator<Element, Failure>

  @usableFromInline let base: Base
  @usableFromInline let scheduler: S

  @inlinable
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(
      base: base, scheduler: scheduler,
      machine: MeasureIntervalMachine())
  }
}

/// Measure interval: each element becomes the distance from the previous one (or from the
/// start). No timer.
@usableFromInline
struct MeasureIntervalMachine<Input: Sendable, UpstreamFailure: Error, Time: Strideable & Sendable>:
  TimedOperatorMachine
where Time.Stride: Sendable {
  @usableFromInline typealias Element = Time.Stride
  @usableFromInline typealias Failure = UpstreamFailure
  @usableFromInline typealias Effects = TimedOperatorEffects<Time.Stride, UpstreamFailure, Time>

  @usableFromInline var previous: Time?

  @inlinable init() {}

  @inlinable
  mutating func started(at now: Time) -> Effects {
    previous = now
    return Effects()
  }

  @inlinable
  mutating func received(_ input: Input, at now: Time) -> Effects {
    let interval = (previous ?? now).distance(to: now)
    previous = now
    return Effects(outputs: [.element(interval)])
  }

  @inlinable
  mutating func upstreamFinished(at now: Time) -> Effects {
    Effects(outputs: [.finished])
  }

  @inlinable
  mutating func upstreamFailed(_ error: UpstreamFailure, at now: Time) -> Effects {
    Effects(outputs: [.failed(error)])
  }

  @inlinable
  mutating func timerFired(at now: Time) -> Effects { Effects() }
}

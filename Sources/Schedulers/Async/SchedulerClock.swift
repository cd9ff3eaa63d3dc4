/// A `Clock` that tells a scheduler's time, so `Clock`-taking APIs run on it.
///
/// `Task.sleep(for:clock:)`, swift-async-algorithms' operators and any code written against
/// `some Clock<Duration>` follow a test scheduler's virtual time through this view:
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// let clock = scheduler.clock
/// Task { try await Task.sleep(for: .seconds(5), clock: clock) }
/// ```
///
/// Durations convert to and from the scheduler's stride (see
/// ``SchedulerTimeIntervalConvertible``).
public struct SchedulerClock<S: Scheduler & Sendable>: Clock
where
  S.SchedulerTimeType: Hashable, S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable
{
  /// An instant of the scheduler's clock.
  public struct Instant: InstantProtocol, Sendable {
    /// The scheduler's own representation of the instant.
    public var time: S.SchedulerTimeType

    /// Creates an instant from the scheduler's time.
    public init(_ time: S.SchedulerTimeType) { self.time = time }

    /// The instant `duration` later (earlier, if negative).
    public func advanced(by duration: Duration) -> Instant {
      Instant(time.advanced(by: S.SchedulerTimeType.Stride(duration)))
    }

    /// The time from this instant to `other` (negative if `other` is earlier).
    public func duration(to other: Instant) -> Duration {
      time.distance(to: other.time).duration
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.time < rhs.time }
  }

  /// The scheduler this clock tells the time of.
  public let scheduler: S

  /// Creates a clock view of `scheduler`.
  public init(_ scheduler: S) { self.scheduler = scheduler }

  /// The scheduler's `now`, as an instant of this clock.
  public var now: Instant { Instant(scheduler.now) }

  /// One nanosecond of the scheduler's stride, expressed as a duration.
  public var minimumResolution: Duration { S.SchedulerTimeType.Stride.nanoseconds(1).duration }

  /// Sleeps on the scheduler until `deadline`: `scheduler.sleep(until:tolerance:)`, so a test
  /// scheduler's clock wakes the sleeper when the test advances past `deadline`.
  ///
  /// Throws `CancellationError` if the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await scheduler.sleep(
      until: deadline.time, tolerance: tolerance.map { S.SchedulerTimeType.Stride($0) })
  }
}

extension Scheduler
where Self: Sendable, SchedulerTimeType: Sendable & Hashable, SchedulerTimeType.Stride: Sendable {
  /// This scheduler's time as a `Clock`.
  ///
  /// ```swift
  /// try await Task.sleep(for: .milliseconds(300), clock: scheduler.clock)
  /// ```
  public var clock: SchedulerClock<Self> { SchedulerClock(self) }
}

import Schedulers

/// One call made on a ``RecordingScheduler``.
///
/// ```swift
/// #expect(recording.history.last?.delay == .milliseconds(300))
/// ```
public struct SchedulerCall<SchedulerTimeType: Strideable & Sendable>: Sendable,
  CustomStringConvertible
where SchedulerTimeType.Stride: Sendable {
  /// Which method was called.
  public enum Method: String, Sendable {
    /// A read of `now`.
    case now
    /// A read of `minimumTolerance`.
    case minimumTolerance
    /// `schedule(options:_:)`: run as soon as possible.
    case schedule
    /// `schedule(after:tolerance:options:_:)`: run once at an instant.
    case scheduleAfter
    /// `schedule(after:interval:tolerance:options:_:)`: run at an instant, then every interval.
    case scheduleRepeating
    /// `scheduleCancellable(after:tolerance:options:_:)`: run once at an instant, unless
    /// cancelled first.
    case scheduleCancellable
    /// `sleep(until:tolerance:)`.
    case sleepUntil
    /// `sleep(for:tolerance:)`.
    case sleepFor
  }

  /// The method.
  public let method: Method
  /// The scheduler's time when the call was made.
  public let at: SchedulerTimeType
  /// The instant asked for (`schedule(after:)`, `sleep(until:)`), if any.
  public let date: SchedulerTimeType?
  /// The duration asked for (`sleep(for:)`), if any.
  public let duration: SchedulerTimeType.Stride?
  /// The repeat interval, if any.
  public let interval: SchedulerTimeType.Stride?
  /// The tolerance, if any.
  public let tolerance: SchedulerTimeType.Stride?
  /// The options, described, if any were passed.
  public let options: String?

  /// How long after the call the work was asked to run: `date - at`, or the sleep's
  /// duration; `nil` for reads and immediate work.
  public var delay: SchedulerTimeType.Stride? {
    duration ?? date.map { at.distance(to: $0) }
  }

  public var description: String {
    var parts = ["\(method.rawValue)"]
    if let delay { parts.append("in \(describeStride(delay))") }
    if let interval { parts.append("every \(describeStride(interval))") }
    if let tolerance { parts.append("tolerance \(describeStride(tolerance))") }
    if let options { parts.append("options \(options)") }
    return parts.joined(separator: " ")
  }
}

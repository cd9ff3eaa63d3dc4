/// How ``_Concurrency/AsyncSequence/collect(_:)`` groups elements: by windows of a scheduler's
/// time, or by time or count, whichever is reached first. The shape of Combine's
/// `Publishers.TimeGroupingStrategy`.
///
/// ```swift
/// for await batch in events.collect(.byTime(scheduler, .seconds(5))) {
///   try await analytics.upload(batch)
/// }
/// ```
public enum TimeGroupingStrategy<S: Scheduler & Sendable>: Sendable
where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  /// Windows of `interval`, one after another from the start of the iteration; each window's
  /// elements go out as one array when it closes.
  case byTime(S, S.SchedulerTimeType.Stride)
  /// As `byTime`, but a window also closes, at once, when it holds `count` elements; the next
  /// window then starts at that instant.
  case byTimeOrCount(S, S.SchedulerTimeType.Stride, Int)

  @inlinable var scheduler: S {
    switch self {
    case .byTime(let scheduler, _), .byTimeOrCount(let scheduler, _, _): scheduler
    }
  }

  @inlinable var interval: S.SchedulerTimeType.Stride {
    switch self {
    case .byTime(_, let interval), .byTimeOrCount(_, let interval, _): interval
    }
  }

  /// The most elements a window holds, or `nil` for no limit.
  @inlinable var count: Int? {
    if case .byTimeOrCount(_, _, let count) = self { return count }
    return nil
  }
}

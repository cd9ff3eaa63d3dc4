/// What ``Scheduler/timer(interval:tolerance:missedTicks:fileID:filePath:line:column:)`` delivers after its
/// consumer was slower than the interval.
///
/// With an interval of 1 s, and a consumer that spends 2.5 s on the first tick:
///
/// ```
/// due:     1   2   3   4   5
/// .burst:  1 ------(2 3)4  5     ticks 2 and 3 at 3.5 s, at once
/// .drop:   1 -----------4  5     2 and 3 are dropped; 4 comes when due
/// ```
///
/// ```swift
/// for await _ in scheduler.timer(interval: .seconds(1), missedTicks: .drop) { redraw() }
/// ```
public enum MissedTickPolicy: Sendable, Hashable {
  /// Every missed tick, at once, each with the instant it was due (the default).
  case burst
  /// Only the next tick on the grid: the one due now, if there is one, or the next one.
  case drop
}

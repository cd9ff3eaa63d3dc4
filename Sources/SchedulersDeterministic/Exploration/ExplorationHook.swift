import Synchronization

/// How an exploration hands each of its runs the chooser of that run's schedule, and the report
/// a crash during the run writes.
package enum ExplorationHook {
  /// The chooser the next run started by this task takes; `nil`: first in, first out.
  @TaskLocal package static var chooser: ScheduleChooser?
  /// The report line of the schedule the exploration is in, for a crash to write
  /// (`ExplorationCrashReport`); each run of the exploration lays it out when it begins, under
  /// the run gate, so that explorations of tests running side by side never write it at once.
  @TaskLocal package static var crashReport: PendingCrashReport?
}

/// The report line an exploration keeps up to date as it goes from schedule to schedule.
package final class PendingCrashReport: Sendable {
  private let text = Mutex<String?>(nil)
  package init() {}
  /// The line for the runs from now on.
  package func set(_ line: String) { text.withLock { $0 = line } }
  package var line: String? { text.withLock { $0 } }
}

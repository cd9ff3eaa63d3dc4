/// How an exploration hands each of its runs the chooser of that run's schedule.
package enum ExplorationHook {
  /// The chooser the next run started by this task takes; `nil`: first in, first out.
  @TaskLocal package static var chooser: ScheduleChooser?
}

/// A scheduler whose sleeps can wait forever unless a test moves its clock: a test scheduler.
package protocol StalledSleepWatching {
  /// The watchdog and what it needs for a sleep starting now; `nil` inside a deterministic
  /// run, whose driver reports a run that cannot progress itself.
  func stalledSleepWatch() -> (StalledSleepWatchdog, StalledSleepContext)?
}

/// What a test scheduler tells the watchdog about a sleep on it.
package struct StalledSleepContext: Sendable {
  /// The test running where the scheduler was created, if known.
  let testName: String?
  /// The scheduler's pending work, described when the sleep is reported.
  let pendingWork: @Sendable () -> String?
}

import Dispatch
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Turns a test that would wait forever on a test scheduler's sleep into a failure.
///
/// Outside a deterministic run, nothing knows when a task has reached its sleep. A test that
/// advances before the task registers (or never advances) moves the clock past the task's
/// deadline, and a test awaiting that task then waits forever, with no message: the hang
/// combine-schedulers' suite shows under load. Inside a run the driver sees it as a deadlock.
/// Outside one, this watchdog looks at sleeps on test schedulers every quarter of its limit.
/// When a sleep has waited for the whole limit (20 s by default) in real time, and no test
/// scheduler in the process has started an advance in that time, it records a failure that
/// says what to do, and ends that sleep with `CancellationError`, so that the test finishes.
///
/// Why "no advance anywhere" and not "no advance of this scheduler": a sleep left pending by a
/// test that has finished (a timer loop on a scheduler a test case keeps) is no hang, and must
/// not fail a later test. While tests of virtual time run, some scheduler advances; a process
/// where none has advanced for 20 s is waiting, and a waiting test of virtual time is stuck.
///
/// `SCHEDULERS_STALLED_SLEEP_LIMIT` in the environment sets the limit in seconds (`0` turns
/// the watchdog off).
package final class StalledSleepWatchdog: Sendable {
  /// The watchdog of every test scheduler that was not given another.
  package static let shared = StalledSleepWatchdog(limit: configuredLimit, checksItself: true)

  /// 20 s, or `SCHEDULERS_STALLED_SLEEP_LIMIT` seconds; `nil` (off) for `0`.
  static var configuredLimit: Duration? {
    guard
      let limit = EnvironmentValue.read(
        "SCHEDULERS_STALLED_SLEEP_LIMIT", expected: limitExpected, limit(fromEnvironmentValue:))
    else { return .seconds(20) }
    return limit
  }

  /// What `SCHEDULERS_STALLED_SLEEP_LIMIT` takes, for its refusal.
  package static let limitExpected = "a finite number of seconds, zero or more (0: no watchdog)"

  /// The limit `SCHEDULERS_STALLED_SLEEP_LIMIT` asks for: `.some(nil)` (no watchdog) for `0`;
  /// `nil` when the text is not a finite number of seconds, zero or more.
  package static func limit(fromEnvironmentValue text: String) -> Duration?? {
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else { return nil }
    return .some(seconds == 0 ? nil : .seconds(seconds))
  }

  /// How long a sleep may wait with no advance anywhere; `nil` when the watchdog is off.
  package let limit: Duration?
  /// Whether the watchdog schedules its own checks on a Dispatch queue (tests call
  /// ``check(atUptimeNanoseconds:)`` themselves instead).
  let checksItself: Bool
  /// Counts the advances started on the schedulers that use this watchdog.
  private let advances = Atomic<UInt64>(0)
  private let state = Mutex(State())

  private struct Watched {
    let sleeper: Sleeper
    let site: CallSite?
    let context: StalledSleepContext
    /// The advance count when the sleep was last seen, and since when (uptime, ns).
    var advancesSeen: UInt64
    var since: UInt64
  }

  private struct State {
    var watched: [ObjectIdentifier: Watched] = [:]
    var checkScheduled = false
  }

  package init(limit: Duration?, checksItself: Bool) {
    self.limit = limit
    self.checksItself = checksItself
  }

  /// Called when an advance (or `run()`) of a test scheduler starts.
  @usableFromInline
  func advanceStarted() {
    advances.add(1, ordering: .relaxed)
  }

  /// Watches a sleep that has been scheduled, until ``unwatch(_:)``.
  func watch(_ sleeper: Sleeper, site: CallSite?, context: StalledSleepContext) {
    guard limit != nil else { return }
    let seen = advances.load(ordering: .relaxed)
    let now = DispatchTime.now().uptimeNanoseconds
    let scheduleCheck = state.withLock { state -> Bool in
      state.watched[ObjectIdentifier(sleeper)] = Watched(
        sleeper: sleeper, site: site, context: context, advancesSeen: seen, since: now)
      guard checksItself, !state.checkScheduled else { return false }
      state.checkScheduled = true
      return true
    }
    if scheduleCheck { scheduleNextCheck() }
  }

  /// Stops watching a sleep that woke, was cancelled, or was ended by the watchdog.
  func unwatch(_ sleeper: Sleeper) {
    guard limit != nil else { return }
    state.withLock { _ = $0.watched.removeValue(forKey: ObjectIdentifier(sleeper)) }
  }

  /// The number of sleeps being watched.
  package var watchedCount: Int { state.withLock { $0.watched.count } }

  /// Looks at every watched sleep as of `now` (uptime in nanoseconds): one that has waited the
  /// whole limit with no advance started since is reported and ended. Returns how many were.
  @discardableResult
  package func check(atUptimeNanoseconds now: UInt64) -> Int {
    guard let limit else { return 0 }
    let limitNanoseconds = UInt64(max(0, Nanoseconds.saturating(limit)))
    let advanced = advances.load(ordering: .relaxed)
    let stalled = state.withLock { state -> [Watched] in
      var stalled: [Watched] = []
      for (key, var watched) in state.watched {
        if watched.advancesSeen != advanced {
          watched.advancesSeen = advanced
          watched.since = now
          state.watched[key] = watched
        } else if now >= watched.since && now - watched.since >= limitNanoseconds {
          state.watched[key] = nil
          stalled.append(watched)
        }
      }
      return stalled
    }
    for watched in stalled {
      watched.sleeper.end(throwing: ended(watched, limit: limit))
    }
    return stalled.count
  }

  private func scheduleNextCheck() {
    guard let limit else { return }
    let period = max(Nanoseconds.saturating(limit) / 4, 1_000_000)
    DispatchQueue.global(qos: .utility).asyncAfter(
      deadline: .now() + .nanoseconds(period)
    ) { [self] in
      check(atUptimeNanoseconds: DispatchTime.now().uptimeNanoseconds)
      let more = state.withLock { state -> Bool in
        state.checkScheduled = !state.watched.isEmpty
        return state.checkScheduled
      }
      if more { scheduleNextCheck() }
    }
  }

  /// What the ended sleep throws, and records in its task: the message, at the sleep's line.
  private func ended(_ watched: Watched, limit: Duration) -> StalledSleepEnded {
    let pending = watched.context.pendingWork().map { " Pending: \($0)." } ?? ""
    let message =
      "A task has slept on a TestScheduler for \(describeDuration(limit)) of real time, and no test scheduler has advanced since: a test awaiting it would wait forever. Either the clock moved before the task began to sleep (outside withDeterministicExecution, an advance cannot know that a task has yet to reach its sleep), or nothing advances this scheduler. Advance once the task sleeps (`try await scheduler.waitForPendingWork(count:)` with the number of pending actions to expect), or run the test inside withDeterministicExecution(scheduler:), where advance waits for the task. The sleep now ends with CancellationError so the test can finish.\(pending) (SCHEDULERS_STALLED_SLEEP_LIMIT=seconds changes the limit; 0 turns this check off.)"
    return StalledSleepEnded(
      message: message, site: watched.site, testName: watched.context.testName)
  }
}

/// Thrown into a sleep the watchdog ended; the sleep records it and throws `CancellationError`.
struct StalledSleepEnded: Error {
  let message: String
  let site: CallSite?
  let testName: String?

  func record() {
    let fileID = site?.fileID ?? #fileID
    TestFailure.record(
      message, fileID: fileID, filePath: fileID, line: site?.line ?? #line, column: 1,
      testName: testName)
  }
}

import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// A test that would wait forever on a test scheduler's sleep, outside a deterministic run,
/// fails with a message instead. Each test gives its schedulers a watchdog of its
/// own and runs its checks by hand at chosen instants, so nothing here waits for the limit,
/// and parallel tests' advances (which reset a shared watchdog) cannot interfere.
@Suite("Stalled-sleep watchdog")
struct StalledSleepWatchdogTests {
  let limit = Duration.seconds(20)

  func watchdog() -> StalledSleepWatchdog {
    StalledSleepWatchdog(limit: limit, checksItself: false)
  }

  func scheduler(_ watchdog: StalledSleepWatchdog) -> TestSchedulerOf<DispatchQueue> {
    TestScheduler(
      now: DispatchQueue.test.now, order: .firstInFirstOut, stalledSleepWatchdog: watchdog)
  }

  func later(_ duration: Duration) -> UInt64 {
    DispatchTime.now().uptimeNanoseconds + UInt64(duration.components.seconds) * 1_000_000_000
  }

  /// The hang combine-schedulers' `testAsyncSleep` shows under load: the clock moved before
  /// the task began to sleep, and the test awaits the task. Without the watchdog,
  /// `await task.value` never returns.
  @Test func aSleepRegisteredAfterTheClockMovedFailsTheTestInsteadOfHanging() async throws {
    let watchdog = watchdog()
    let scheduler = scheduler(watchdog)
    await scheduler.advance(by: .seconds(1))  // the clock moves first...
    // The task is created inside `withKnownIssue`: the failure is recorded on the sleeping
    // task, which inherits the test and the known-issue scope from where it was created.
    try await withKnownIssue {
      // The sleep registers between `beforeTheSleep` and the wait's return, however long the
      // wait takes (seconds under the thread sanitizer, beside a busy suite): 19 s after the
      // first is short of its limit, 21 s after the second past it.
      let beforeTheSleep = DispatchTime.now().uptimeNanoseconds
      let task = Task { try await scheduler.sleep(for: .seconds(1)) }  // ...then it sleeps
      try await scheduler.waitForPendingWork(count: 1)
      #expect(watchdog.watchedCount == 1)
      #expect(watchdog.check(atUptimeNanoseconds: beforeTheSleep + 19_000_000_000) == 0)
      #expect(watchdog.check(atUptimeNanoseconds: later(.seconds(21))) == 1)
      do {
        try await task.value
        Issue.record("the stalled sleep returned normally")
      } catch {
        #expect(error is CancellationError)
      }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("a test awaiting it would wait forever")
        && text.contains("waitForPendingWork(count:)")
        && text.contains("withDeterministicExecution")
        && text.contains("StalledSleepWatchdogTests.swift")  // the sleep's line, in pending work
    }
    #expect(watchdog.watchedCount == 0)
    #expect(scheduler.pendingActionCount == 0)  // the wake-up left the queue with the sleep
  }

  /// A sleep left pending by a finished test (a timer loop on a scheduler a test case keeps)
  /// is no hang: while any scheduler of the watchdog advances, nothing is reported.
  @Test func anAdvanceOfAnySchedulerRestartsTheWait() async throws {
    let watchdog = watchdog()
    let sleeping = scheduler(watchdog)
    let other = scheduler(watchdog)
    let task = Task { try await sleeping.sleep(for: .seconds(1)) }
    try await sleeping.waitForPendingWork(count: 1)

    await other.advance(by: .seconds(1))
    #expect(watchdog.check(atUptimeNanoseconds: later(.seconds(21))) == 0)
    #expect(watchdog.check(atUptimeNanoseconds: later(.seconds(40))) == 0)
    #expect(watchdog.watchedCount == 1)

    await sleeping.advance(by: .seconds(1))
    try await task.value
    #expect(watchdog.watchedCount == 0)
  }

  @Test func aCancelledSleepIsNoLongerWatched() async throws {
    let watchdog = watchdog()
    let scheduler = scheduler(watchdog)
    let task = Task { try await scheduler.sleep(for: .seconds(1)) }
    try await scheduler.waitForPendingWork(count: 1)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(watchdog.watchedCount == 0)
    #expect(watchdog.check(atUptimeNanoseconds: later(.seconds(60))) == 0)
  }

  /// Inside a run, the driver reports a body that cannot progress; the watchdog stays out.
  @Test func sleepsInsideADeterministicRunAreLeftToTheRun() async throws {
    let watchdog = watchdog()
    let scheduler = scheduler(watchdog)
    try await withDeterministicExecution(scheduler: scheduler) {
      let task = Task { try await scheduler.sleep(for: .seconds(1)) }
      await DeterministicExecution.idle()
      #expect(scheduler.pendingActionCount == 1)
      #expect(watchdog.watchedCount == 0)
      await scheduler.advance(by: .seconds(1))
      try await task.value
    }
  }

  @Test func aWatchdogWithoutALimitWatchesNothing() async throws {
    let off = StalledSleepWatchdog(limit: nil, checksItself: false)
    let scheduler = scheduler(off)
    let task = Task { try await scheduler.sleep(for: .seconds(1)) }
    try await scheduler.waitForPendingWork(count: 1)
    #expect(off.watchedCount == 0)
    #expect(off.check(atUptimeNanoseconds: later(.seconds(3600))) == 0)
    await scheduler.advance(by: .seconds(1))
    try await task.value
  }

  @Test(
    arguments: [
      ("0", .some(nil)), ("2.5", .some(.milliseconds(2500))), ("90", .some(.seconds(90))),
      ("soon", nil), ("-1", nil), ("inf", nil),
    ] as [(String, Duration??)])
  func theLimitComesFromTheEnvironment(text: String, limit: Duration??) {
    #expect(StalledSleepWatchdog.limit(fromEnvironmentValue: text) == limit)
  }

  /// The same hang with the watchdog checking by itself, as every test scheduler's does, with a
  /// short limit: the test's only real-time wait, the limit (200 ms) once the task sleeps. A
  /// watchdog that never fired would leave the 60 s bound's cancellation to end the sleep, with
  /// no issue recorded, and `withKnownIssue` would fail. (The bound is generous because under
  /// the thread sanitizer, beside the suite's other tests, the task and the watchdog's checks
  /// can start seconds late: a 10 s bound was once reached first.)
  @Test func theWatchdogChecksByItself() async throws {
    let watchdog = StalledSleepWatchdog(limit: .milliseconds(200), checksItself: true)
    let scheduler = scheduler(watchdog)
    await scheduler.advance(by: .seconds(1))
    await withKnownIssue {
      let task = Task { try await scheduler.sleep(for: .seconds(1)) }
      let bound = DispatchWorkItem { task.cancel() }
      DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: bound)
      defer { bound.cancel() }
      _ = try? await task.value
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("for 200 ms of real time")
    }
  }
}

import Dispatch
import Schedulers
import Synchronization

/// Questions a test asks the deterministic run it is in (`idle()`, `elapsed`), how the run's
/// virtual time moves (`VirtualTime`, `background`), and which routing backend carries it
/// (`backend`).
// Its members are declared by concern: DeterministicExecution+Idle.swift,
// DeterministicExecution+VirtualTime.swift, DeterministicExecution+Backend.swift.
public enum DeterministicExecution {}

/// Runs `body` so that every job it causes runs on one queue that test schedulers can drain,
/// making "nothing left to run" exact, and `await scheduler.advance(by:)` deterministic.
///
/// Inside the run, `@MainActor` code, `Task {}` created anywhere, actors, task groups and
/// `AsyncStream`s all go through one queue, run one job at a time, in order (main-actor jobs
/// on the main queue, the others on the thread that drives the run: the caller's own while no
/// step must wait, a driver thread after one does, or in turns on the main queue
/// with the main-queue backend). A test
/// scheduler's async `TestScheduler/advance(by:)` then returns only when every task the step
/// made runnable has run until it suspends on something not yet due, or finishes. No
/// `Task.yield()`, no real-time waits:
///
/// ```swift
/// @MainActor @Test func searchIsDebounced() async throws {
///   let scheduler = DispatchQueue.test
///   try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
///     let model = SearchModel(scheduler: scheduler.eraseToAnyScheduler())
///     model.queryChanged("abc")
///     await scheduler.advance(by: .milliseconds(300))
///     #expect(model.results == ["abc"])
///   }
/// }
/// ```
///
/// - Plain `Task.sleep` inside the run follows `scheduler`'s virtual clock where the backend can
///   see it (the experimental `DeterministicExecution.Backend.plainTaskSleepIsVirtual`): the
///   runtime hands over a deadline read from a real clock, and the run recovers the delay as the
///   roundest duration the moment between that reading and the hand-over allows (any multiple of
///   500 µs is exact unless the thread was preempted then, or, after a long job, is almost a far
///   rounder one: 999.5 ms as 1 s; nearly always any multiple of 100 µs). For exact virtual time on
///   every backend, sleep on the scheduler (`scheduler.sleep(for:)`) or pass `scheduler.clock` to
///   `Clock`-taking APIs. With `.manual` time and no scheduler, plain `Task.sleep` sleeps in real
///   time, as outside work. Plain sleeps still pending when the run ends are reported, and go on
///   sleeping outside the run, in real time, for the virtual time they had left. Only the run's own
///   tasks (the body and the tasks it creates, not detached ones) sleep on the virtual clock: other
///   tasks keep real time, so a test's `.timeLimit` still measures real time.
/// - Work that escapes the run (Dispatch, threads, I/O) must be awaited through
///   ``withOutsideWork(_:)``; otherwise the run reports a deadlock once nothing else can make
///   progress for a grace of 100 ms of real time (in case a job is on its way back from an
///   actor with an executor of its own).
/// - If the body ends with sleepers still pending on `scheduler`, the run records a failure
///   that lists them. If the body is suspended and nothing can resume it, the run cancels the
///   body, records the deadlock (with the pending work) as a failure at this call, and throws
///   ``DeterministicExecutionError`` with the same text.
/// - A task of the run that ends by throwing when nothing holds its handle any more (a
///   fire-and-forget `Task {}` whose error Swift would drop without a word) fails the test,
///   naming the error, when the run ends; `droppedTaskErrors: .ignored` lets such errors go
///   (``DeterministicExecution/DroppedTaskErrors``).
/// - Cancelling the calling task cancels the body at once; a call still waiting for another
///   test's run to end waits on, and its body starts cancelled.
/// - Runs take turns: a second run waits for the first. Tasks the run knows to be another
///   test's stay on the cooperative pool; their actors' turns go through the run, serialised
///   (their plain `Task.sleep`s keep real time).
/// - Outside a run, every job goes to the platform's executors, as without this package (with
///   the custom-executor backend, the package's executors stay installed after the first run,
///   and hand every job to the platform's).
/// - `virtualTime` says how virtual time moves: ``DeterministicExecution/VirtualTime/manual``
///   (the default: only by the body's advances), or
///   ``DeterministicExecution/VirtualTime/autoAdvance`` (by itself whenever nothing else can go
///   on; without a scheduler, the run makes a test scheduler of its own for plain sleeps).
///
/// Jobs reach the run through one of three backends (the experimental
/// `DeterministicExecution.backend`): the custom-executor SPI of Swift 6.3, the runtime's hook
/// variables elsewhere, or, where the runtime has no hook for the main executor (Apple's 18 to
/// 25 generations), the global
/// executor's hook with the run's jobs taking turns on the main queue. Where none works (WASI,
/// Windows, Apple OSes before the 18 generation) the run records a failure that says so and
/// throws ``DeterministicExecutionError`` without running the body: never a quietly racing
/// test.
///
/// `outsideWorkTimeout` is how long, in real time, the run waits for work begun with
/// ``withOutsideWork(_:)`` to finish while nothing else in the run can progress, before it
/// reports a deadlock. It is only a guard against a hang: outside work that finishes sooner
/// ends the wait at once. Durations past about 292 years mean "forever".
public func withDeterministicExecution<R: Sendable>(
  virtualTime: DeterministicExecution.VirtualTime = .manual,
  outsideWorkTimeout: Duration = .seconds(10),
  droppedTaskErrors: DeterministicExecution.DroppedTaskErrors = .reported,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation,
  _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
  try await runWithoutAScheduler(
    virtualTime, outsideWorkTimeout: outsideWorkTimeout, droppedTaskErrors: droppedTaskErrors,
    reporting: .atCall(SourceLocationOfCall(fileID, filePath, line, column)),
    isolation: isolation, body)
}

/// A run without a caller's scheduler: an auto-advancing one needs a clock for plain sleeps,
/// so it gets a test scheduler of its own; a manual one has none (plain sleeps are real time).
private func runWithoutAScheduler<R: Sendable>(
  _ virtualTime: DeterministicExecution.VirtualTime, outsideWorkTimeout: Duration,
  droppedTaskErrors: DeterministicExecution.DroppedTaskErrors,
  reporting: RunReporting, isolation: isolated (any Actor)?,
  _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
  guard virtualTime.autoAdvances else {
    return try await runDeterministically(
      clock: nil, outsideWorkTimeout: outsideWorkTimeout, droppedTaskErrors: droppedTaskErrors,
      reporting: reporting, isolation: isolation, body)
  }
  let scheduler = DispatchQueue.test
  defer { withExtendedLifetime(scheduler) {} }  // the run holds it weakly
  return try await runDeterministically(
    clock: RunClock(scheduler, virtualTime), outsideWorkTimeout: outsideWorkTimeout,
    droppedTaskErrors: droppedTaskErrors, reporting: reporting, isolation: isolation, body)
}

/// Runs `body` deterministically, with plain `Task.sleep` following `scheduler`'s virtual time
/// and a failure recorded if the body leaves sleepers pending on it.
///
/// See ``withDeterministicExecution(virtualTime:outsideWorkTimeout:droppedTaskErrors:fileID:filePath:line:column:isolation:_:)``.
///
/// `scheduler` is the test scheduler whose virtual clock plain `Task.sleep` follows inside
/// the run, and whose pending sleepers are reported when the body returns; with
/// `virtualTime: .autoAdvance` the run moves it by itself whenever nothing else can go on:
///
/// ```swift
/// try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
///   await model.refresh()  // sleeps on the scheduler; no advance needed
/// }
/// ```
///
/// `droppedTaskErrors` says what the run does with the error of a task of its own that ends by
/// throwing when nothing holds its handle (``DeterministicExecution/DroppedTaskErrors``): a
/// failure of the test by default. `outsideWorkTimeout`
/// is how long, in real time, the run waits for work begun with
/// ``withOutsideWork(_:)`` to finish while nothing else in the run can progress, before it
/// reports a deadlock. It is only a guard against a hang: outside work that finishes sooner
/// ends the wait at once. Durations past about 292 years mean "forever".
public func withDeterministicExecution<Time, Options, R: Sendable>(
  scheduler: TestScheduler<Time, Options>,
  virtualTime: DeterministicExecution.VirtualTime = .manual,
  outsideWorkTimeout: Duration = .seconds(10),
  droppedTaskErrors: DeterministicExecution.DroppedTaskErrors = .reported,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation,
  _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
  try await runDeterministically(
    clock: RunClock(scheduler, virtualTime), outsideWorkTimeout: outsideWorkTimeout,
    droppedTaskErrors: droppedTaskErrors,
    reporting: .atCall(SourceLocationOfCall(fileID, filePath, line, column)),
    isolation: isolation, body)
}

/// The run's test scheduler, as the run uses it: plain sleeps go on it, its pending work is
/// described in failure reports, and an auto-advancing run moves it.
struct RunClock: Sendable {
  let scheduleVirtualSleep: ScheduleVirtualSleep
  let describePending: @Sendable () -> String?
  /// The virtual time since the run started, `nil` once the scheduler is gone.
  let elapsed: @Sendable () -> Duration?
  let autoAdvance: AutoAdvanceClock?

  // Weak: a run does not keep the caller's scheduler alive (a plain sleep on a scheduler
  // that is gone wakes at once).
  init<Time, Options>(
    _ scheduler: TestScheduler<Time, Options>, _ virtualTime: DeterministicExecution.VirtualTime
  ) {
    scheduleVirtualSleep = { [weak scheduler] delay, label, wakeUp in
      guard let scheduler else {
        wakeUp()
        return nil
      }
      // Past Int nanoseconds (292 years) the virtual clock cannot hold the deadline: the
      // sleep waits until cancelled, as it would in real time.
      guard Nanoseconds.checked(delay) != nil else { return nil }
      let deadline = scheduler.now.advanced(by: Time.Stride(delay))
      let entry = SendableCancellable(
        scheduler.scheduleCancellable(after: deadline, label: label, wakeUp))
      return VirtualSleepEntry(
        cancel: { entry.cancel() },
        remaining: { [weak scheduler] in
          scheduler.map { Duration($0.now.distance(to: deadline)) }
        })
    }
    describePending = { [weak scheduler] in scheduler?.pendingWorkDescription }
    let origin = scheduler.now
    elapsed = { [weak scheduler] in scheduler.map { Duration(origin.distance(to: $0.now)) } }
    guard virtualTime.autoAdvances else {
      autoAdvance = nil
      return
    }
    autoAdvance = AutoAdvanceClock(
      step: { [weak scheduler] in scheduler?.stepForAutoAdvance()?.kindAndSite },
      nextDue: { [weak scheduler] in
        scheduler?.nextDeadline.map { Duration(origin.distance(to: $0)) }
      },
      maxSteps: virtualTime.maxSteps, maxVirtualTime: virtualTime.maxVirtualTime)
  }
}

/// Awaits work that completes outside the run (a Dispatch callback, a thread, real I/O).
///
/// While it is pending, a deterministic run waits for it in real time (up to the run's
/// `outsideWorkTimeout`) instead of reporting a deadlock. Outside a run, it just awaits.
///
/// ```swift
/// let data = try await withOutsideWork { try await legacyClient.fetch() }
/// ```
public func withOutsideWork<R: Sendable>(
  _ operation: @Sendable () async throws -> R
) async rethrows -> R {
  guard let run = DeterministicRun.current else { return try await operation() }
  run.beginOutsideWork()
  defer { run.endOutsideWork() }
  return try await operation()
}

struct SourceLocationOfCall: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
  init(_ fileID: StaticString, _ filePath: StaticString, _ line: UInt, _ column: UInt) {
    (self.fileID, self.filePath, self.line, self.column) = (fileID, filePath, line, column)
  }

  /// Records a failure of the running test here (call it on the test's own task).
  func record(_ message: String) {
    TestFailure.record(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// Who records a run's failures in the running test. Both record on the caller's task, where
/// the test framework knows which test is running.
enum RunReporting: Sendable {
  /// The run records every failure at the call that started it.
  case atCall(SourceLocationOfCall)
  /// The caller (the test trait) records what the run throws, at a place of its choosing; the
  /// work a finished body left pending, which is not thrown, goes to `recordLeftovers`.
  case byCaller(recordLeftovers: @Sendable (String) -> Void)

  /// Records a failure that the run also throws as ``DeterministicExecutionError``.
  func recordThrown(_ message: String) {
    if case .atCall(let location) = self { location.record(message) }
  }

  /// Records a failure the run does not throw (the run returns the body's result): the work
  /// a finished body left pending, the errors its tasks dropped.
  func recordWithoutThrowing(_ message: String) {
    switch self {
    case .atCall(let location): location.record(message)
    case .byCaller(let recordLeftovers): recordLeftovers(message)
    }
  }
}

/// How the report of the work a finished body left pending begins: a caller that does not
/// count it as a failure (a suite explored unchanged, whose tests may leave a task behind on
/// purpose) tells it from the others by it.
package let pendingWorkReportOpening =
  "The deterministic run's body finished with work still pending"

/// Runs `body` deterministically, leaving the failures it throws to the caller (the test
/// trait), which records them at the test's own source location; the work the body leaves
/// pending (sleepers on an auto-advancing run's clock) is handed to `recordLeftovers`, since
/// the run returns normally then. Throws ``DeterministicExecutionError`` for a deadlock.
package func withDeterministicExecutionReportedByCaller<R: Sendable>(
  virtualTime: DeterministicExecution.VirtualTime = .manual,
  droppedTaskErrors: DeterministicExecution.DroppedTaskErrors = .reported,
  recordLeftovers: @escaping @Sendable (String) -> Void,
  _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
  try await runWithoutAScheduler(
    virtualTime, outsideWorkTimeout: .seconds(10), droppedTaskErrors: droppedTaskErrors,
    reporting: .byCaller(recordLeftovers: recordLeftovers), isolation: nil, body)
}

extension DeterministicRun {
  /// The run the current task belongs to: set for the body, inherited by the tasks it creates
  /// (except detached ones), and absent in unrelated tests running in parallel. Kept in the
  /// `Schedulers` hook that async `advance` reads.
  static var current: DeterministicRun? { DeterministicRunContext.current as? DeterministicRun }
}

private func runDeterministically<R: Sendable>(
  clock: RunClock?,
  outsideWorkTimeout: Duration,
  droppedTaskErrors: DeterministicExecution.DroppedTaskErrors,
  reporting: RunReporting,
  isolation: isolated (any Actor)?,
  _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
  guard let router = jobRouter else {
    // Never quietly a racing test: where nothing can route the run's jobs, the run fails.
    let report = """
      Deterministic execution is unavailable here: \(unavailableReason). The body did not \
      run: without routing, advance() could not tell when the tasks it woke have run, and the \
      test would race. Run this test on a platform with one of the three backends (see the \
      support table in "Testing async code deterministically").
      """
    reporting.recordThrown(report)
    throw DeterministicExecutionError(description: report, bodyIsStuck: false)
  }
  guard DeterministicRun.current == nil else {
    // The outer run is the caller's, and its queue is the only one: a nested run would wait
    // for the outer one to end, which waits for this call. Refused at once instead.
    let report = """
      withDeterministicExecution was called inside a deterministic run (a test with the \
      .deterministicExecution trait, or another withDeterministicExecution): runs cannot \
      nest. Remove one of the two; the outer run already makes everything inside it \
      deterministic. (To give the inner body a test scheduler's virtual Task.sleep, move the \
      scheduler to the outer withDeterministicExecution(scheduler:).)
      """
    reporting.recordThrown(report)
    throw DeterministicExecutionError(description: report, bodyIsStuck: false)
  }
  // Once per process, before any run of its own begins: whether the runtime's layout reads as
  // this package expects (`RuntimeABI`), and where a task's ending is written.
  if !RuntimeABI.isProbed { await RuntimeABI.probeOnce() }
  if let failure = RuntimeABI.headerFailure {
    FallbackWarnings.warnOnce(
      "runtimeABI",
      """
      the runtime's job header is not laid out as this package reads it (\(failure)): a \
      task's jobs are the run's by address alone, exploring tells jobs apart by address only \
      (a seed may not replay), and errors that tasks drop are not reported; runs are otherwise \
      deterministic as before
      """)
  }
  if droppedTaskErrors == .reported {
    if !TaskEndingLayout.isKnown { await TaskEndingLayout.findOnce() }
    if let reason = DeterministicExecution.droppedTaskErrorsUnseenReason {
      FallbackWarnings.warnOnce(
        "droppedTaskErrors",
        "errors that tasks drop are not reported in this process: \(reason)")
    }
  }
  if clock != nil, !router.backend.plainTaskSleepIsVirtual {
    // A run with virtual time, where a plain Task.sleep would be expected on its clock.
    FallbackWarnings.warnOnce(
      "plainTaskSleep",
      """
      a plain Task.sleep inside a run sleeps in real time here (backend: \
      \(router.backend); this runtime sends sleeps past the hooks), unseen by the run: give \
      the run a test scheduler (withDeterministicExecution(scheduler:)) and sleep on it \
      (scheduler.sleep(for:), or Task.sleep(for:clock: scheduler.clock)) to sleep in \
      virtual time
      """)
  }
  // One run at a time (`RunGate`).
  if !RunGate.shared.tryEnter() { await RunGate.shared.enter(isolation: isolation) }
  defer { RunGate.shared.leave() }
  if clock != nil, router.backend.plainTaskSleepIsVirtual { await warmUpPlainSleeps() }

  // An exploring run picks its jobs by the chooser its exploration set for it.
  let chooser = ExplorationHook.chooser ?? ExploreEveryRun.nextChooser()
  let run = DeterministicRun(
    router: router, scheduleVirtualSleep: clock?.scheduleVirtualSleep,
    describePending: clock?.describePending ?? noPendingWork,
    outsideWorkTimeout: outsideWorkTimeout,
    elapsed: clock?.elapsed, autoAdvance: clock?.autoAdvance,
    droppedTaskErrors: droppedTaskErrors, hopsAreJobs: chooser?.hopsAreJobs ?? false)
  if let chooser {
    run.state.withLock { $0.exploring = DeterministicRun.Exploring(chooser: chooser) }
  }
  // Under the gate, as every write of the crash report's storage: the report of this run's
  // schedule if an exploration runs it, none otherwise.
  if ExplorationHook.chooser != nil, let line = ExplorationHook.crashReport?.line {
    ExplorationCrashReport.prepare(line)
  } else {
    ExplorationCrashReport.disarm()
  }
  let outcome = Outcome<R>()
  // The caller's cancellation reaches the body at once: the body runs in a task of its own
  // (so that its jobs go to the run), which the handler cancels.
  let bodyTask = Mutex<Task<Void, Never>?>(nil)
  // The run is driven right here, on the caller's thread, where that costs no one anything:
  // the caller is main-actor code (main-actor jobs then run in place), or nonisolated code on
  // the cooperative pool (the run in progress takes every job of its own, so the pool has
  // nothing of the run's to run meanwhile). No thread hand-over then, unless the run must wait
  // (`DeterministicRun.driveInPlace`). A driver thread drives it elsewhere: a caller on another
  // actor, which the run's jobs may need, and the main-queue backend, whose turns are on the
  // main queue.
  // A nonisolated caller may be on the main thread too: a task that an executor hook sends to
  // the main queue (withMainSerialExecutor's, for every task) runs there. Main-actor jobs run
  // in place for it as for main-actor code: `DispatchQueue.main.sync` from the main queue
  // would wait on itself (a crash, in Dispatch).
  let callerIsOnTheMainActor =
    isolation.map { $0 === MainActor.shared } ?? isOnTheMainQueue()
  let drivesInPlace =
    !router.mainActorJobsStayOnMainQueue
    && (callerIsOnTheMainActor || isolation == nil)
  let ending = await withTaskCancellationHandler {
    ActiveRuns.begin(run)
    HopsAsJobs.begin(for: run)
    // Created as the run's (the task-local makes its first job the run's), so the body's
    // first job is already on the run's queue. Not detached: the body inherits the caller's
    // task-locals (the running test).
    let task = DeterministicRunContext.$current.withValue(run) {
      router.makeBodyTask(hopsAreJobs: run.hopsAreJobs) {
        run.adoptCurrentTask()
        let result = await DeterministicRunContext.$current.withValue(run) {
          do { return Result<R, any Error>.success(try await body()) } catch {
            return .failure(error)
          }
        }
        outcome.value.withLock { $0 = result }
        run.bodyDidFinish()
      }
    }
    ActiveRuns.noteBodysTask(task, of: run)
    bodyTask.withLock { $0 = task }
    // A cancellation that came before the task was stored found nothing to cancel.
    if Task.isCancelled { task.cancel() }
    let cancelBody: @Sendable () -> Void = { task.cancel() }
    var firstStep: DeterministicRun.Step?
    if drivesInPlace {
      let step = run.driveInPlace(onMainQueue: callerIsOnTheMainActor, cancelBody: cancelBody)
      if case .finish = step { return run.end(.finished(leftovers: nil)) }
      firstStep = step
    }
    // The driver starts before the caller awaits anything: while the run routes, a job of the
    // caller's own (a hop, should awaiting need one) goes to the run's queue, and only a
    // driver already running runs it.
    let handedOver = firstStep
    let ended = RunEnding()
    startDriverThread {
      ended.deliver(run.end(run.drive(startingWith: handedOver, cancelBody: cancelBody)))
    }
    return await ended.value(isolation: isolation)
  } onCancel: {
    bodyTask.withLock { $0 }?.cancel()
  }
  // Failures are recorded here, on the caller's task, where the test framework knows which
  // test is running (the driver thread belongs to no test), and thrown with the same text.
  // Whatever else happened, the errors the run's tasks dropped are failures of their own.
  if let dropped = run.droppedErrorsReport { reporting.recordWithoutThrowing(dropped) }
  if let notIdle = run.notIdleReport { reporting.recordWithoutThrowing(notIdle) }
  if let takeover = run.takeoverReport {
    reporting.recordWithoutThrowing(
      "Deterministic run: \(takeover) (The run put its own hook back after the job that replaced it; "
        + "jobs enqueued before then ran outside the run.)")
  }
  switch ending {
  case .deadlocked(let reason):
    // What the run saw when it first cancelled the body (the deadlock with the work then
    // pending, a livelock's trace, auto-advance's culprits) is the finding; the body's failure
    // to unwind comes after it.
    let report =
      "Deterministic run deadlocked: \(reason)"
      + (run.deadlockReport.map { " What the run found before it cancelled the body: \($0)" } ?? "")
    reporting.recordThrown(report)
    throw DeterministicExecutionError(description: report, bodyIsStuck: true)
  case .finished(let leftovers):
    if let report = run.deadlockReport {
      reporting.recordThrown(report)
      throw DeterministicExecutionError(description: report, bodyIsStuck: false)
    }
    if let leftovers {
      reporting.recordWithoutThrowing(
        "\(pendingWorkReportOpening): \(leftovers). "
          + "Sleeps on the scheduler stay there (advance it to let them go); plain Task.sleeps "
          + "go on sleeping outside the run, in real time, for the virtual time they had left.")
    }
    return try outcome.value.withLock { $0 }!.get()
  }
}

extension DeterministicRun {
  /// Ends the run the driver stopped driving: describes what the body left pending, stops
  /// routing jobs to the run and hands back the jobs it still holds. Returns the ending to
  /// report.
  fileprivate func end(_ ending: Ending) -> Ending {
    var ending = ending
    // Described before the run hands its sleeps back, which takes them off the scheduler.
    if case .finished(let unsettled) = ending {
      let leftovers = [unsettled, describeLeftovers()].compactMap { $0 }
      ending = .finished(leftovers: leftovers.isEmpty ? nil : leftovers.joined(separator: "; "))
    }
    ActiveRuns.end(self)
    HopsAsJobs.end(for: self)
    handBackRemainingJobs()
    // Still under the gate: a crash from now on is not this run's schedule's.
    ExplorationCrashReport.disarm()
    return ending
  }
}

/// How a run ended, handed from its driver thread to the caller, whichever of the two comes
/// first.
private final class RunEnding: Sendable {
  private struct State {
    var ending: DeterministicRun.Ending?
    var waiter: CheckedContinuation<DeterministicRun.Ending, Never>?
  }
  private let state = Mutex(State())

  /// Called once, by the driver.
  func deliver(_ ending: DeterministicRun.Ending) {
    let waiter = state.withLock { state -> CheckedContinuation<DeterministicRun.Ending, Never>? in
      guard let waiter = state.waiter else {
        state.ending = ending
        return nil
      }
      state.waiter = nil
      return waiter
    }
    waiter?.resume(returning: ending)
  }

  /// The ending, once the driver has delivered it.
  func value(isolation: isolated (any Actor)?) async -> DeterministicRun.Ending {
    await withCheckedContinuation(isolation: isolation) { continuation in
      let ending = state.withLock { state -> DeterministicRun.Ending? in
        if let ending = state.ending { return ending }
        state.waiter = continuation
        return nil
      }
      if let ending { continuation.resume(returning: ending) }
    }
  }
}

/// What a run without a test scheduler says of its pending work: nothing.
@Sendable private func noPendingWork() -> String? { nil }

/// Whether a plain sleep has paid the process's one-time costs (`warmUpPlainSleeps`); read and
/// written under the run gate only.
private let plainSleepsWarmedUp = Atomic<Bool>(false)

/// The first plain `Task.sleep` of a process spends tens of microseconds between the
/// runtime's reading of the clock and the hand-over to the run (conformance and metadata
/// lookups done once), which would skew its virtual deadline: a zero-length sleep pays that
/// cost first, where it does not matter. With the custom executors it goes the way a sleep of
/// the run's goes (the executor's delayed enqueue); with the runtime hooks (runtimes before
/// 6.3), which are out while no run is in progress, it pays the runtime's part.
///
/// Called under the run gate, before the run begins: no run is in progress to take the sleep
/// or to wait for it (inside a run it was a wait the run could not see, which a busy machine
/// could stretch past the deadlock grace), and no other run's body can sleep first. Only a
/// sleep that slept counts: a cancelled caller's leaves the warm-up to the next run.
private func warmUpPlainSleeps() async {
  guard !plainSleepsWarmedUp.load(ordering: .relaxed) else { return }
  do {
    try await Task.sleep(for: .zero)
    plainSleepsWarmedUp.store(true, ordering: .relaxed)
  } catch {}
}

/// The body's result, handed from the body's task to the caller.
private final class Outcome<R: Sendable>: Sendable {
  let value = Mutex<Result<R, any Error>?>(nil)
}

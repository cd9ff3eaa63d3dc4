// What a deterministic run says when it ends: the errors its tasks dropped, the deadlock it
// answered, a routing replaced during it, and the work it left pending, with the backend named.

import Dispatch
import Schedulers
import Synchronization

extension DeterministicRun {
  /// The report of the errors the run's tasks dropped (see `DroppedTaskErrors.swift`), if any.
  /// Read once the run has ended.
  var droppedErrorsReport: String? {
    let errors = state.withLock { $0.findings.droppedErrors }
    guard let first = errors.first else { return nil }
    if errors.count == 1 {
      return """
        A task of the deterministic run ended by throwing \(first), and nothing held its \
        handle, so no one could await it: Swift drops such an error without a word. Await the \
        task's value, catch the error inside the task, or pass droppedTaskErrors: .ignored if \
        dropping it is meant.
        """
    }
    return """
      \(errors.count) tasks of the deterministic run ended by throwing (\(errors.joined(separator: "; "))), \
      and nothing held their handles, so no one could await them: Swift drops such errors \
      without a word. Await the tasks' values, catch the errors inside the tasks, or pass \
      droppedTaskErrors: .ignored if dropping them is meant.
      """
  }

  /// What the run said when its tasks kept a waiter for its idleness waiting through
  /// `idleWaitBound` jobs, if they did. Read once the run has ended.
  var notIdleReport: String? { state.withLock { $0.findings.notIdle } }

  /// The deadlock the run found and answered by cancelling the body, if any.
  var deadlockReport: String? { state.withLock { $0.findings.cancelledBodyFor } }

  /// What the run said when a job replaced its routing, if one did. Read once the run has
  /// ended.
  var takeoverReport: String? { state.withLock { $0.findings.takeover } }

  /// Names the backend in a failure report, with what about it could explain the failure.
  func backendSuffix() -> String {
    var suffix = " Routing: \(router.backend)."
    if !router.backend.plainTaskSleepIsVirtual {
      suffix += """
         With this backend on this runtime a plain Task.sleep inside the run sleeps in real \
        time, unseen by the run: if the body waits on one, sleep on the test scheduler instead \
        (scheduler.sleep(for:), or Task.sleep(for:clock: scheduler.clock)).
        """
    }
    if let takeover = router.takeoverReport { suffix += " " + takeover }
    return suffix
  }

  /// Where the run's suspended tasks wait, for a deadlock's report: for each, the functions
  /// its frames will resume in, innermost first (`TaskEndingWatch.whereTasksWait`), and, when
  /// it waits on a continuation, the function that made it, since nothing in the run can
  /// resume that continuation any more. Empty where the run does not watch its tasks
  /// (`droppedTaskErrors: .ignored`) or the runtime's frames are not read
  /// (`RuntimeABI.resumePointsAreKnown`). Read while no job of the run runs.
  func waitingSuffix() -> String {
    // On the main-queue backend main-actor jobs bypass the run, so a task of the run may be
    // running on the main queue now, and its frames must not be read.
    guard let taskEndings, !mainActorJobsStayOnMainQueue else { return "" }
    let bodysTask = bodysTaskID.load(ordering: .relaxed)
    let waits = taskEndings.whereTasksWait().compactMap { task -> String? in
      let who = task.id == bodysTask ? "the body's task" : "task \(task.id)"
      return describeWait(of: who, resumingIn: task.resumePoints)
    }
    guard !waits.isEmpty else { return "" }
    return " Where the run's tasks wait: " + waits.joined(separator: "; ") + "."
  }

  /// One task's wait: `nil` when none of its frames is named.
  private func describeWait(of who: String, resumingIn points: [UInt]) -> String? {
    // The frames the run itself wraps a body in are not where the test waits; the runtime's
    // own (no Swift name) and the compiler's thunks are not either.
    let names = points.map { FunctionNames.name(of: $0) }
      .prefix { name in !Self.runsOwnFrames.contains { name?.contains($0) ?? false } }
      .compactMap { $0 }
      .filter { name in !Self.thunks.contains { name.hasPrefix($0) } }
    guard !names.isEmpty else { return nil }
    let maker = Self.continuationMakers.first { names[0].hasPrefix($0) }
    // A continuation's maker spans frames of its own; the function that called it made it.
    let waitsIn = maker == nil ? names : Array(names.drop { $0.hasPrefix(maker!) })
    guard let innermost = waitsIn.first else { return nil }
    let callers = waitsIn.dropFirst().prefix(5)
    let calledFrom = callers.isEmpty ? "" : ", called from " + callers.joined(separator: " ← ")
    if let maker {
      return "\(who) waits on a continuation that \(innermost) made (\(maker)), which nothing "
        + "in the run can resume any more\(calledFrom)"
    }
    return "\(who) waits in \(innermost)\(calledFrom)"
  }

  /// The compiler's glue between a function and its caller.
  private static let thunks = ["partial apply forwarder", "reabstraction thunk", "thunk for "]

  /// What the frames of the run's own wrapping of the body (and of the test trait's) are
  /// named by.
  private static let runsOwnFrames = ["SchedulersDeterministic.", "SchedulersTesting."]

  /// The functions that suspend a task on a continuation.
  private static let continuationMakers = [
    "withCheckedContinuation", "withCheckedThrowingContinuation", "withUnsafeContinuation",
    "withUnsafeThrowingContinuation",
  ]

  func pendingSuffix() -> String {
    describeLeftovers().map { " Pending: \($0)." } ?? ""
  }

  /// The work still pending: on the test scheduler, and plain sleeps too long for its clock.
  /// `nil` when there is none. Called by the driver before the run hands its sleeps back.
  func describeLeftovers() -> String? {
    let beyondTheClock = state.withLock { state in
      state.plainSleeps.byID.sorted { $0.key < $1.key }.map(\.value).filter(\.isBeyondTheClock)
        .map {
          "\($0.label), due in \(describeDuration($0.delay)) (past 292 years: until cancelled)"
        }
    }
    let parts =
      [describePending()].compactMap { $0 }
      + (beyondTheClock.isEmpty
        ? []
        : [
          "\(beyondTheClock.count) waiting until cancelled: \(beyondTheClock.joined(separator: "; "))"
        ])
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }
}

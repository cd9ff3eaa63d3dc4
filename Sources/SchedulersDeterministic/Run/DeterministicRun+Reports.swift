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

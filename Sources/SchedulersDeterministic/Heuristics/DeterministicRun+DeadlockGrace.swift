// A run that looks deadlocked: nothing runnable, no outside work, the body suspended. Where
// every job of the run passes through its queue that is exact; an actor with an executor of its
// own is the exception, so the run waits a bounded grace before it believes it.

import Dispatch
import Schedulers
import Synchronization

extension DeterministicRun {
  /// How long, in real time, a run that looks deadlocked waits for a job to come back from an
  /// actor with its own executor (a custom `SerialExecutor`, whose jobs the run does not see)
  /// before it believes it and reports the deadlock.
  ///
  /// A bounded total: jobs of the run's own that arrive meanwhile are run and start it again,
  /// as do the end of outside work and the body going on. Jobs of unrelated tests running in
  /// parallel (a poller's sleeps, say) cannot put the report off: the run that takes every
  /// job runs them without starting the grace again.
  ///
  /// 100 ms, unless the process explores a suite not written for it (`SchedulersSuiteExploration`
  /// sets `DeadlockGrace.duration`): its tests wait on queues, threads and timers of their own,
  /// which a busy machine may hold up longer than that.
  static var foreignExecutorGrace: Duration { DeadlockGrace.duration }

  /// The driver's answer to a run that looks deadlocked: waits until the grace ends
  /// (`State.idle`) for a job to arrive (back from an actor with its own executor, or of an
  /// unrelated test where runs take turns), and returns `nil` to ask again if one did, or once
  /// the body was cancelled for the deadlock; returns the ending if the body did not finish
  /// when cancelled before. The grace goes on running out unless the job that arrived was the
  /// run's own.
  func waitOutTheGrace(
    cancelledBefore: Bool, cancelBody: @escaping @Sendable () -> Void
  ) -> Ending? {
    // `nil` once a job of the run's own (or the end of outside work) ended the suspicion
    // since the step was decided: ask again.
    guard let graceEnds = state.withLock({ $0.idle.graceEnds }) else { return nil }
    if wakeDriver.wait(timeout: graceEnds) == .success { return nil }
    state.withLock {
      _ = $0.idle.wake(endingSuspicion: true, unsettlingTheMainQueue: false)
    }
    if cancelledBefore {
      return .deadlocked(
        "the body is suspended, nothing in the run can resume it, and it did not finish when cancelled."
          + pendingSuffix() + waitingSuffix() + backendSuffix())
    }
    // Described now, before the cancellation removes the sleepers it would name.
    let report =
      "Deterministic run deadlocked: the body is suspended and nothing in the run can resume it (no job is runnable, no outside work is pending)."
      + pendingSuffix() + waitingSuffix() + " The body was cancelled."
      + " (If it awaits an actor with its own executor, whose jobs the run cannot see, that actor did not answer within \(Self.foreignExecutorGrace).)"
      + backendSuffix()
    state.withLock {
      $0.noteBodyCancelled(for: report, replacing: true)
    }
    cancelBody()
    return nil
  }
}

/// The grace of every run of the process (`DeterministicRun.foreignExecutorGrace`).
package enum DeadlockGrace {
  static let setting = Mutex<Duration>(.milliseconds(100))

  /// The grace every run of the process waits from now on.
  package static var duration: Duration {
    get { setting.withLock { $0 } }
    set { setting.withLock { $0 = newValue } }
  }
}

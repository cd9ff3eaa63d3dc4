// The run's contracts, checked where `SCHEDULERS_CHECK_CONTRACTS=1` asks for it (this
// package's CI does, for its suites under every backend): the state's invariants after every
// decision, and "one job at a time", on which the `@unchecked Sendable` of what only the
// run's jobs touch (`ScheduleChooser`, `TaskEndingWatch`) rests. Off by default: users pay
// nothing for them.

import Schedulers
import Synchronization

extension DeterministicRun {
  /// Whether this process checks the runs' contracts (`SCHEDULERS_CHECK_CONTRACTS=1`).
  static let checksContracts: Bool =
    EnvironmentValue.read("SCHEDULERS_CHECK_CONTRACTS", expected: "0 or 1") {
      switch $0 {
      case "1": true
      case "0": false
      default: nil
      }
    } ?? false

  /// Runs `job` as the only job of the run in progress, checking that it is.
  func runningOneJobAtATime(_ job: () -> Void) {
    guard Self.checksContracts else { return job() }
    let before = jobsRunning.add(1, ordering: .acquiringAndReleasing).oldValue
    precondition(
      before == 0,
      "Deterministic execution: a job of the run began while another was running (one job at a time is broken)"
    )
    job()
    jobsRunning.subtract(1, ordering: .acquiringAndReleasing)
  }
}

extension DeterministicRun.State {
  /// Stops the process, naming the broken invariant, if the state breaks one (when
  /// `checksContracts`).
  func checkInvariants() {
    guard DeterministicRun.checksContracts else { return }
    func require(_ holds: Bool, _ invariant: String) {
      precondition(
        holds, "Deterministic execution: the run's state broke an invariant: \(invariant)")
    }
    require(0 <= head && head <= jobs.count, "the queue's head is within it")
    require(outsideWork >= 0, "outside work is never negative")
    if isClosed {
      require(jobs.isEmpty && head == 0, "a closed run queues nothing")
      require(plainSleeps.byID.isEmpty, "a closed run keeps no plain sleep")
      require(idleWaiters.isEmpty, "a closed run keeps no idle waiter")
    }
    switch phase {
    case .settling(let jobsAfterBody):
      require(jobsAfterBody <= DeterministicRun.settlingBound, "settling stays within its bound")
    case .bodyRunning, .closed: break
    }
    switch idle {
    case .waitingForOutsideWork:
      require(outsideWork > 0, "the driver waits for outside work only while some is pending")
    case .unsettled, .mainQueueSettled, .waitingOutTheGrace, .suspected: break
    }
    for (task, id) in plainSleeps.idsByTask {
      require(plainSleeps.byID[id]?.taskAddress == task, "each sleeping task names its sleep")
    }
    require(
      (plainSleeps.byID.keys.max() ?? 0) <= plainSleeps.lastID, "sleep ids are given in order")
    if let exploring {
      require(
        exploring.livelockStoppedAt.map { $0 <= exploring.jobs } ?? true,
        "a livelock stops at a job the run has run")
    }
  }

}

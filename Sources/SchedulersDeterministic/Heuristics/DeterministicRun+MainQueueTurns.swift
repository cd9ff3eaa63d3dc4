// How a run drives its jobs where main-actor jobs bypass it (the runtime hooks without the main
// executor's hook: Apple's 18 to 25 generations, `SCHEDULERS_DETERMINISTIC_BACKEND=main-queue`
// elsewhere).
//
// Main-actor jobs then go to the main queue by themselves, unseen by the run. For the run's
// other jobs to take turns with them, one at a time and in an order that does not depend on
// timing, the run runs its jobs on the main queue too, in turns: a turn is a block on the main
// queue that runs the jobs queued when it starts, then puts the next turn at the end of the
// main queue, behind the main-actor jobs enqueued meanwhile. Everything that enqueues on the
// main queue then runs on it, so the order is fixed by the code, not by threads racing. (The
// driver thread only starts a chain of turns and waits for it; a block it sent from its own
// thread between turns would race with the main-actor jobs.)
//
// "Nothing left to run" cannot be read off the main queue, which has no way to say it is
// empty. The chain ends after `quietTurnsBeforeIdle` turns in a row that found nothing of the
// run's to run: each such turn comes after every main-actor job enqueued before it, so a chain
// of main-actor jobs that enqueue each other, without passing through the global executor, is
// followed that many links deep. (Jobs that pass through the global executor, as most do, are
// seen at once and restart the count.)

import Dispatch

extension DeterministicRun {
  /// How many turns in a row must find nothing to run before the main queue counts as settled.
  static let quietTurnsBeforeIdle = 16

  /// Runs the run's jobs in turns on the main queue until a chain of quiet turns ends; blocks
  /// the driver thread meanwhile.
  func runTurnsOnMainQueue() {
    let chainEnded = DispatchSemaphore(value: 0)
    DispatchQueue.main.async { ActiveRuns.drivingARun { self.turn(quietSoFar: 0, chainEnded) } }
    chainEnded.wait()
  }

  /// One turn, on the main queue.
  private func turn(quietSoFar: Int, _ chainEnded: DispatchSemaphore) {
    // Only the jobs queued now: those they enqueue wait for the next turn, behind the
    // main-actor jobs enqueued meanwhile. `RunDecision` decides each (a bound may come first),
    // and whether the chain goes on.
    var queuedNow = state.withLock { $0.jobs.count - $0.head }
    let ranAny = queuedNow > 0
    while queuedNow > 0 {
      guard let queued = nextJobOfATurn() else {
        chainEnded.signal()
        return
      }
      run(queued, onMainActor: false)
      queuedNow -= 1
    }
    let quiet = ranAny ? 0 : quietSoFar + 1
    if chainOfTurnsGoesOn(quiet: quiet >= Self.quietTurnsBeforeIdle) {
      DispatchQueue.main.async {
        ActiveRuns.drivingARun { self.turn(quietSoFar: quiet, chainEnded) }
      }
    } else {
      chainEnded.signal()
    }
  }
}

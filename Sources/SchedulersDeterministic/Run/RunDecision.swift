// What a deterministic run's driver does next, as a pure function of the facts it depends on.
// The driver reduces its state to a `RunSituation` under the run's lock, asks `RunDecision`,
// and carries the answer out (`DeterministicRun.nextStep`): the order of the questions, which
// is the whole policy of the run, lives here alone, and a table test checks it row by row.

/// The facts of a run's state that decide its next step.
package struct RunSituation: Equatable, Sendable {
  /// Where an exploring run stands against its bound of jobs (`Exploration.maxJobsPerSchedule`).
  package enum ExploringBound: Equatable, Sendable {
    /// Not exploring, or below the bound.
    case notReached
    /// The bound is reached for the first time: the schedule is a livelock.
    case reached
    /// Reached again after the livelock's cancellation: the body does not end.
    case reachedAgain
  }

  package var exploringBound = ExploringBound.notReached
  /// The settling bound stopped the run after the body finished (a task kept running).
  package var settlingStopped = false
  /// Someone awaits the run's idleness, and the run has taken `DeterministicRun.idleWaitBound`
  /// jobs since it was last idle (a first-in first-out run: exploring has a bound of its own).
  package var idleWaitBoundDue = false
  /// The run's jobs run in turns on the main queue (the main-queue backend).
  package var turnsOnTheMainQueue = false
  /// A job is queued.
  package var jobQueued = false
  /// Taking one more job would pass the settling bound (the body has finished).
  package var settlingBoundDue = false
  /// The main queue was last seen with nothing of the run's to run (main-queue backend).
  package var mainQueueSettled = true
  /// Plain sleeps whose task was cancelled are still on the test scheduler.
  package var cancelledSleepsPending = false
  /// Someone awaits the run's idleness (an async `advance`, `idle()`).
  package var idleWaiters = false
  package var bodyFinished = false
  /// Work begun with `withOutsideWork` is still pending.
  package var outsideWork = false
  /// The run moves virtual time itself, and its clock may have something due.
  package var autoAdvanceMayStep = false

  package init() {}
}

/// The next step of a run, as `RunDecision.next` names it; the driver turns it into work.
package enum RunDecision: Equatable, Sendable {
  /// Report the livelock, cancel the body, and go on first in, first out.
  case stopLivelock
  /// The body did not end as many jobs after the livelock: give up on it.
  case giveUpAfterLivelock
  /// End the settling: tasks the body left keep running past the bound.
  case stopSettling
  /// Tell a waiter the run is not idle and will not be soon: its tasks kept it busy for the
  /// whole bound (a loop that waits by yielding for what the waiter does next). Report it.
  case stopWaitingForIdle
  /// Run the run's jobs in turns on the main queue until it settles.
  case turns
  /// Take the next job and run it.
  case runNextJob
  /// Take cancelled plain sleeps off the test scheduler.
  case dropCancelledSleeps
  /// Tell a waiter the run is idle: the body, or a task of the run, goes on.
  case resumeIdleWaiter
  /// The body has finished and nothing is runnable: the run ends.
  case finish
  /// Wait in real time for outside work.
  case waitForOutsideWork
  /// Move virtual time to the next due action.
  case autoAdvance
  /// Nothing can go on: wait out the grace, then report a deadlock.
  case suspectDeadlock

  /// The next step in `situation`. The order is the policy: bounds first (they stop what would
  /// not end: an exploring run's, the settling's, a waiter's for idleness), then work (a job,
  /// the main queue's turns), then what idleness means, from the least to the most drastic
  /// (cancelled sleeps, waiters, the end, outside work, virtual time, a deadlock).
  package static func next(in situation: RunSituation) -> RunDecision {
    switch situation.exploringBound {
    case .reached: return .stopLivelock
    case .reachedAgain: return .giveUpAfterLivelock
    case .notReached: break
    }
    if situation.settlingStopped { return .stopSettling }
    if situation.idleWaitBoundDue { return .stopWaitingForIdle }
    if situation.turnsOnTheMainQueue {
      if situation.jobQueued || !situation.mainQueueSettled { return .turns }
    } else if situation.jobQueued {
      return situation.settlingBoundDue ? .stopSettling : .runNextJob
    }
    if situation.cancelledSleepsPending { return .dropCancelledSleeps }
    if situation.idleWaiters { return .resumeIdleWaiter }
    // Once the body has finished and nothing is runnable, the run ends: outside work still
    // pending (a plain sleep's real-time timer, say) no longer holds it.
    if situation.bodyFinished { return .finish }
    if situation.outsideWork { return .waitForOutsideWork }
    if situation.autoAdvanceMayStep { return .autoAdvance }
    return .suspectDeadlock
  }
}

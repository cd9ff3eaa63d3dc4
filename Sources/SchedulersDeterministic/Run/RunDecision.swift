// What a deterministic run does next, as a pure function of the facts it depends on.
// `RunStep` is every step a run can take, from the decision to the work: `RunStep.next(in:)`
// names the next one on a `RunSituation`, the facts of the run's state, with nothing taken yet
// (a `RunDecision`); the driver takes what the step acts on under the same lock (the job, the
// waiter, the cancelled sleeps) and carries it out (`DeterministicRun.Step`,
// `DeterministicRun.nextStep`). The main queue's turns ask it too, before each job they take
// and at the end of each turn (`DeterministicRun+MainQueueTurns.swift`). The order of the
// questions is the run's policy, with two heuristics of its own beside it (the deadlock grace
// and the main queue's quiet turns); a table test checks it row by row.

/// The facts of a run's state that decide its next step.
package struct RunSituation: Equatable, Sendable {
  /// Where an exploring run stands against its bound of jobs (`Exploration.maxJobsPerSchedule`).
  package enum ExploringBound: Equatable, Sendable {
    /// Not exploring, or below the bound.
    case notReached
    /// The bound is reached for the first time, after `jobs` of the run's own jobs: the
    /// schedule is a livelock.
    case reached(jobs: Int)
    /// Reached again, `jobsSinceLivelock` jobs after the livelock's cancellation: the body does
    /// not end.
    case reachedAgain(jobsSinceLivelock: Int)
  }

  package var exploringBound = ExploringBound.notReached
  /// Someone awaits the run's idleness, and the run has taken its idle-wait bound of jobs
  /// (`DeterministicRun.idleWaitBound`) since it was last idle (a first-in first-out run:
  /// exploring has a bound of its own).
  package var idleWaitBoundDue = false
  /// The run's jobs run in turns on the main queue (the main-queue backend).
  package var turnsOnTheMainQueue = false
  /// How many jobs are queued.
  package var queuedJobs = 0
  /// Taking one more job would pass the settling bound (the body has finished).
  package var settlingBoundDue = false
  /// The main queue was last seen with nothing of the run's to run (main-queue backend).
  package var mainQueueSettled = true
  /// Plain sleeps whose task was cancelled are still on the test scheduler.
  package var cancelledSleepsPending = false
  /// Someone awaits the run's idleness (an async `advance`, `idle()`).
  package var idleWaiters = false
  package var bodyFinished = false
  /// The run has cancelled its body already (for a deadlock, a livelock, an auto-advance
  /// bound).
  package var bodyCancelled = false
  /// Work begun with `withOutsideWork` is still pending.
  package var outsideWork = false
  /// The run moves virtual time itself, and its clock may have something due.
  package var autoAdvanceMayStep = false

  package init() {}
}

/// A step of a run, from its decision to its work. `Job`, `Waiter` and `Sleeps` are what the
/// step acts on: nothing yet (`Untaken`) in the decision `next(in:)` makes (`RunDecision`);
/// the job taken off the queue, the waiter removed, the cancelled sleeps taken once the driver
/// has made it ready under the run's lock (`DeterministicRun.Step`).
package enum RunStep<Job, Waiter, Sleeps> {
  /// An exploring run reached its bound after `jobs` jobs: report the livelock, cancel the
  /// body, and go on first in, first out.
  case stopLivelock(jobs: Int)
  /// The body did not end `jobsSinceLivelock` jobs after the livelock: give up on it.
  case giveUpAfterLivelock(jobsSinceLivelock: Int)
  /// Tell a waiter the run is not idle and will not be soon: its tasks kept it busy for the
  /// whole bound (a loop that waits by yielding for what the waiter does next). Report it.
  case stopWaitingForIdle(Waiter)
  /// End the settling, `stillQueued` jobs still queued: tasks the body left keep running past
  /// the bound.
  case stopSettling(stillQueued: Int)
  /// Run the run's jobs in turns on the main queue until it settles (main-queue backend); in
  /// a turn, take the next job.
  case turns
  /// Run the job.
  case run(Job)
  /// Take cancelled plain sleeps off the test scheduler.
  case dropCancelledSleeps(Sleeps)
  /// Tell a waiter the run is idle: the body, or a task of the run, goes on.
  case resumeIdleWaiter(Waiter)
  /// The body has finished and nothing is runnable: the run ends.
  case finish
  /// Wait in real time for outside work.
  case waitForOutsideWork
  /// Move virtual time to the next due action.
  case autoAdvance
  /// Nothing can go on: wait out the grace (`State.idle` holds its end), then report a
  /// deadlock, or give up on a body that did not end when it was cancelled before.
  case suspectDeadlock(bodyCancelledBefore: Bool)
}

extension RunStep: Equatable where Job: Equatable, Waiter: Equatable, Sleeps: Equatable {}
extension RunStep: Sendable where Job: Sendable, Waiter: Sendable, Sleeps: Sendable {}

/// What a decided step acts on before the driver takes it: nothing yet.
package struct Untaken: Equatable, Sendable {
  package init() {}
}

/// The next step as `RunStep.next(in:)` decides it, with nothing taken yet.
package typealias RunDecision = RunStep<Untaken, Untaken, Untaken>

extension RunStep where Job == Untaken, Waiter == Untaken, Sleeps == Untaken {
  /// The next step in `situation`. The order is the policy: bounds first (they stop what would
  /// not end: an exploring run's, a waiter's for idleness, the settling's), then work (a job,
  /// the main queue's turns), then what idleness means, from the least to the most drastic
  /// (cancelled sleeps, waiters, the end, outside work, virtual time, a deadlock).
  package static func next(in situation: RunSituation) -> RunDecision {
    switch situation.exploringBound {
    case .reached(let jobs): return .stopLivelock(jobs: jobs)
    case .reachedAgain(let jobsSinceLivelock):
      return .giveUpAfterLivelock(jobsSinceLivelock: jobsSinceLivelock)
    case .notReached: break
    }
    if situation.idleWaitBoundDue { return .stopWaitingForIdle(Untaken()) }
    if situation.queuedJobs > 0 {
      if situation.settlingBoundDue { return .stopSettling(stillQueued: situation.queuedJobs) }
      return situation.turnsOnTheMainQueue ? .turns : .run(Untaken())
    }
    if situation.turnsOnTheMainQueue && !situation.mainQueueSettled { return .turns }
    if situation.cancelledSleepsPending { return .dropCancelledSleeps(Untaken()) }
    if situation.idleWaiters { return .resumeIdleWaiter(Untaken()) }
    // Once the body has finished and nothing is runnable, the run ends: outside work still
    // pending (a plain sleep's real-time timer, say) no longer holds it.
    if situation.bodyFinished { return .finish }
    if situation.outsideWork { return .waitForOutsideWork }
    if situation.autoAdvanceMayStep { return .autoAdvance }
    return .suspectDeadlock(bodyCancelledBefore: situation.bodyCancelled)
  }
}

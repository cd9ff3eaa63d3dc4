// How a deterministic run is driven: the steps the driver takes, decided one at a time under
// the run's lock (`nextStep`), on the caller's thread while no step must wait
// (`driveInPlace`) and on a driver thread from the first that must (`drive`).

import Dispatch
import Schedulers
import Synchronization

extension DeterministicRun {
  /// What the driver does next: a `RunStep` made ready, with the job taken, the waiter
  /// removed, the cancelled sleeps taken.
  typealias Step = RunStep<QueuedJob, CheckedContinuation<Void, Never>, [VirtualSleepEntry]>

  /// Drains the run's jobs on the calling thread until the body has finished and nothing is
  /// runnable, or until the run deadlocks. `cancelBody` is called once, at the first deadlock,
  /// to give the body a chance to unwind.
  ///
  /// `first` is a step already decided (by `driveInPlace`, which hands over the first step that
  /// must wait).
  func drive(startingWith first: Step? = nil, cancelBody: @escaping @Sendable () -> Void) -> Ending
  {
    ActiveRuns.drivingARun { driveSteps(startingWith: first, cancelBody: cancelBody) }
  }

  private func driveSteps(startingWith first: Step?, cancelBody: @escaping @Sendable () -> Void)
    -> Ending
  {
    var decided = first
    while true {
      let step = decided ?? nextStep()
      decided = nil
      switch step {
      case .turns:
        runTurnsOnMainQueue()
      case .run, .resumeIdleWaiter, .stopWaitingForIdle, .dropCancelledSleeps, .autoAdvance,
        .stopLivelock:
        perform(step, onMainQueue: false, cancelBody: cancelBody)
      case .giveUpAfterLivelock(let jobs):
        return .deadlocked(
          "the body did not finish \(jobs) jobs after it was cancelled for a livelock (see the "
            + "report before), first in, first out: it keeps running without ever suspending on "
            + "something the run waits for"
            + pendingSuffix() + backendSuffix())
      case .waitForOutsideWork:
        let nanoseconds = Nanoseconds.saturating(outsideWorkTimeout)
        if wakeDriver.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
          return .deadlocked(
            "outside work did not finish within \(outsideWorkTimeout) of real time"
              + pendingSuffix() + backendSuffix())
        }
      case .finish:
        return .finished(leftovers: nil)
      case .stopSettling(let stillQueued):
        return .finished(
          leftovers: """
            tasks still runnable when the body finished: after \(Self.settlingBound) more \
            jobs, \(stillQueued) still queued (a task the body left behind keeps running, \
            for example looping on Task.yield()); they go on outside the run, and the tasks \
            should be cancelled or awaited by the body
            """)
      case .suspectDeadlock(let cancelledBefore):
        if let ending = waitOutTheGrace(cancelledBefore: cancelledBefore, cancelBody: cancelBody) {
          return ending
        }
      }
    }
  }

  /// What the driver does next: decided by `RunDecision` on the facts of the state, and made
  /// ready under the run's lock (the job taken, the waiter removed, the grace started).
  private func nextStep() -> Step {
    state.withLock { state -> Step in
      state.checkInvariants()
      switch RunDecision.next(in: situation(of: state)) {
      case .stopLivelock(let jobs):
        state.exploring?.livelockStoppedAt = jobs
        return .stopLivelock(jobs: jobs)
      case .giveUpAfterLivelock(let jobsSinceLivelock):
        return .giveUpAfterLivelock(jobsSinceLivelock: jobsSinceLivelock)
      case .stopSettling(let stillQueued):
        return .stopSettling(stillQueued: stillQueued)
      case .stopWaitingForIdle:
        if state.findings.notIdle == nil {
          state.findings.notIdle = Self.notIdleReport(
            bound: idleWaitBound, queued: state.jobs[state.head...].count,
            ownQueued: state.jobs[state.head...].filter(\.isItsOwn).count)
        }
        // The next waiter gets a whole bound of its own.
        state.jobsSinceIdle = 0
        return .stopWaitingForIdle(state.idleWaiters.removeFirst())
      case .turns:
        return .turns
      case .run:
        return .run(state.takeDecidedJob())
      // Idle: what the driver does next may put main-actor jobs on the main queue, which the
      // main-queue backend then settles.
      case .dropCancelledSleeps:
        state.noteIdle()
        // Sleeps whose task was cancelled (and resumed through an actor's job, which `enqueue`
        // cannot recognise) leave the test scheduler before anyone is told the run is idle.
        return .dropCancelledSleeps(state.takeCancelledPlainSleeps() ?? [])
      case .resumeIdleWaiter:
        state.noteIdle()
        // The body (or a task of the run) goes on: whatever looked like a deadlock was not.
        state.idle = .unsettled
        state.autoAdvance.foundNothing = false
        return .resumeIdleWaiter(state.idleWaiters.removeFirst())
      case .finish:
        state.noteIdle()
        return .finish
      case .waitForOutsideWork:
        state.noteIdle()
        state.idle = .waitingForOutsideWork
        return .waitForOutsideWork
      case .autoAdvance:
        state.noteIdle()
        return .autoAdvance
      case .suspectDeadlock(let bodyCancelledBefore):
        state.noteIdle()
        // Waited for (briefly) before it is believed: see `foreignExecutorGrace`. The grace is
        // a bounded total: it goes on from where it was, unless progress ended it.
        let graceEnds =
          state.idle.graceEnds
          ?? .now() + .nanoseconds(Nanoseconds.saturating(Self.foreignExecutorGrace))
        state.idle = .waitingOutTheGrace(until: graceEnds)
        return .suspectDeadlock(bodyCancelledBefore: bodyCancelledBefore)
      }
    }
  }

  /// In one of the main queue's turns (`DeterministicRun+MainQueueTurns.swift`), the next job
  /// the turn runs, as `RunDecision` decides: `nil` when the decision is not the turns' (a
  /// bound is due, or nothing is queued), and the chain of turns ends for the driver to carry
  /// it out.
  func nextJobOfATurn() -> QueuedJob? {
    state.withLock { state -> QueuedJob? in
      switch RunDecision.next(in: situation(of: state)) {
      case .turns:
        guard state.head < state.jobs.count else { return nil }
        // The job may put main-actor jobs on the main queue: the chain needs its quiet turns
        // again before it ends.
        state.idle.unsettleTheMainQueue()
        return state.takeDecidedJob()
      case .stopLivelock, .giveUpAfterLivelock, .stopWaitingForIdle, .stopSettling, .run,
        .dropCancelledSleeps, .resumeIdleWaiter, .finish, .waitForOutsideWork, .autoAdvance,
        .suspectDeadlock:
        return nil
      }
    }
  }

  /// At the end of one of the main queue's turns, whether the chain of turns goes on, as
  /// `RunDecision` decides: it ends on any step but `.turns`, for the driver to carry it out
  /// (a bound's stop, or what idleness means). `quiet`: the main queue has had
  /// `quietTurnsBeforeIdle` turns in a row that found nothing to run, and counts as settled.
  func chainOfTurnsGoesOn(quiet: Bool) -> Bool {
    state.withLock { state -> Bool in
      if quiet { state.idle.noteMainQueueSettled() }
      switch RunDecision.next(in: situation(of: state)) {
      case .turns:
        return true
      case .stopLivelock, .giveUpAfterLivelock, .stopWaitingForIdle, .stopSettling, .run,
        .dropCancelledSleeps, .resumeIdleWaiter, .finish, .waitForOutsideWork, .autoAdvance,
        .suspectDeadlock:
        return false
      }
    }
  }

  /// What a run says when its tasks kept a waiter for its idleness waiting through the whole
  /// bound (`idleWaitBound`): `queued` jobs were queued then, `ownQueued` of them the run's own.
  static func notIdleReport(bound: Int, queued: Int, ownQueued: Int) -> String {
    let whose =
      ownQueued == 0
      ? ": a task the run took without knowing whose it is (one started from a Dispatch "
        + "callback, perhaps another test's) kept it busy"
      : ""
    return """
      The deterministic run was never idle while a task awaited its idleness (an async \
      advance, DeterministicExecution.idle()): it ran \(bound) jobs without once running out \
      of them (\(queued) still queued, \(ownQueued) of them its own\(whose)). A task that \
      keeps running, such as a loop that waits by yielding \
      (while !ready { await Task.yield() }) for what the test does after the advance, keeps \
      the run busy for ever. The waiter went on \
      without the run being idle; what kept it busy runs on in the run. Let the loop wait on \
      something that resumes it (a continuation, an AsyncStream, a sleep on the scheduler) \
      instead of yielding.
      """
  }

  /// The facts of `state` that `RunDecision` decides on.
  private func situation(of state: State) -> RunSituation {
    var situation = RunSituation()
    situation.exploringBound = state.exploringBound
    // A waiter's bound: an exploring run is left to its own, which counts only its own jobs,
    // so that its schedules do not depend on another test's.
    situation.idleWaitBoundDue =
      state.exploring == nil && !state.idleWaiters.isEmpty
      && state.jobsSinceIdle >= idleWaitBound
    situation.turnsOnTheMainQueue = mainActorJobsStayOnMainQueue
    situation.queuedJobs = state.jobs.count - state.head
    situation.settlingBoundDue =
      state.bodyFinished && state.jobsAfterBody + 1 > Self.settlingBound
    situation.mainQueueSettled = state.idle.mainQueueSettled
    // Looked at only when no job is queued, the only case where it decides anything.
    situation.cancelledSleepsPending = situation.queuedJobs == 0 && state.hasCancelledPlainSleeps
    situation.idleWaiters = !state.idleWaiters.isEmpty
    situation.bodyFinished = state.bodyFinished
    situation.bodyCancelled = state.findings.cancelledBodyFor != nil
    situation.outsideWork = state.outsideWork > 0
    situation.autoAdvanceMayStep = shouldAutoAdvance(state)
    return situation
  }

  /// Performs a step that neither waits nor ends the run: on the main queue already when
  /// `onMainQueue`, or on the driver thread.
  private func perform(
    _ step: Step, onMainQueue: Bool, cancelBody: @escaping @Sendable () -> Void
  ) {
    switch step {
    case .run(let queued):
      if queued.onMainActor && !onMainQueue {
        // On the main queue itself, while the driver waits: main-actor code stays mutually
        // exclusive with Dispatch work on the main queue (which no routing can capture), and
        // the run still runs one job at a time, in order.
        DispatchQueue.main.sync {
          ActiveRuns.drivingARun { run(queued, onMainActor: true) }
        }
      } else {
        run(queued, onMainActor: queued.onMainActor)
      }
    case .resumeIdleWaiter(let continuation), .stopWaitingForIdle(let continuation):
      continuation.resume()
    case .dropCancelledSleeps(let entries):
      for entry in entries { entry.cancel() }
    case .autoAdvance:
      if let report = autoAdvanceStep(onMainQueue: onMainQueue) {
        state.withLock {
          $0.noteBodyCancelled(for: report, replacing: true)
        }
        cancelBody()
      }
    case .stopLivelock(let jobs):
      state.withLock { state in
        state.exploring?.chooser.stopChoosing()
        let trace = state.exploring?.chooser.describeTrace(limit: 12) ?? ""
        let report = """
          The exploring run took \(jobs) jobs without finishing \
          (Exploration.maxJobsPerSchedule): a loop that waits by yielding starves what it \
          waits for in this order, or the test runs that many jobs (raise the bound then). \
          The body was cancelled, and the run went on first in, first out. What ran: \(trace)
          """
        state.noteBodyCancelled(for: report, replacing: false)
      }
      cancelBody()
    case .turns, .waitForOutsideWork, .finish, .stopSettling, .suspectDeadlock,
      .giveUpAfterLivelock:
      preconditionFailure("Deterministic execution: \(step) is not performed in place")
    }
  }

  /// Runs one of the run's jobs, on the thread it belongs on already; notes the error of a task
  /// of the run's own that it ended, if nothing held the task's handle.
  func run(_ queued: QueuedJob, onMainActor: Bool) {
    if tracksPlainSleeps { jobStart.markStart() }
    func runJob() {
      runningOneJobAtATime { router.run(queued.job, onMainActor: onMainActor) }
    }
    guard queued.isItsOwn else { return runJob() }
    ActiveRuns.runningOwnJob(of: self) {
      if let taskEndings { taskEndings.running(queued.job, runJob) } else { runJob() }
    }
    if let takeover = router.takeRoutingBack() {
      state.withLock { if $0.findings.takeover == nil { $0.findings.takeover = takeover } }
    }
  }

  /// Drives the run on the calling thread, the thread of the task that awaits the run, until a
  /// step must wait or ends the run, and returns that step. `onMainQueue`: the caller is
  /// main-actor code, so main-actor jobs run in place; otherwise they go to the main queue
  /// (`DispatchQueue.main.sync`), as from a driver thread. The idle run resumes its waiters
  /// here too: the run goes to a driver thread only for a step that must wait (outside work, a
  /// suspected deadlock) or that ends it other than by a plain finish. Waiting here would hold
  /// the caller's thread (the main queue, which outside work may need), so the caller hands
  /// such a step to a driver thread (`drive(startingWith:)`).
  ///
  /// The caller's task is current on this thread between jobs; jobs enqueued then are treated
  /// as enqueued where no task is current, as on a driver thread (`ActiveRuns.drivingInPlace`).
  func driveInPlace(onMainQueue: Bool, cancelBody: @escaping @Sendable () -> Void) -> Step {
    ActiveRuns.drivingInPlace {
      ActiveRuns.drivingARun {
        var step = nextStep()
        while step.runsInPlace {
          perform(step, onMainQueue: onMainQueue, cancelBody: cancelBody)
          step = nextStep()
        }
        return step
      }
    }
  }
}

extension RunStep {
  /// Whether the step neither waits nor ends the run, so that the caller's thread may perform
  /// it (`driveInPlace`).
  var runsInPlace: Bool {
    switch self {
    case .run, .resumeIdleWaiter, .stopWaitingForIdle, .dropCancelledSleeps, .autoAdvance,
      .stopLivelock:
      true
    case .turns, .waitForOutsideWork, .finish, .stopSettling, .suspectDeadlock,
      .giveUpAfterLivelock:
      false
    }
  }
}

extension DeterministicRun.State {
  /// Takes the job `RunDecision` answered with: one is queued.
  fileprivate mutating func takeDecidedJob() -> DeterministicRun.QueuedJob {
    guard let job = takeJob() else {
      preconditionFailure("Deterministic execution: no job to take where one was queued")
    }
    return job
  }

  /// The run is idle (nothing queued): the count towards a waiter's bound starts again, and
  /// what the driver does next may put main-actor jobs on the main queue.
  fileprivate mutating func noteIdle() {
    jobsSinceIdle = 0
    idle.unsettleTheMainQueue()
  }
}

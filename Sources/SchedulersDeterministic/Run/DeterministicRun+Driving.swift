// How a deterministic run is driven: the steps the driver takes, decided one at a time under
// the run's lock (`nextStep`), on the caller's thread while no step must wait
// (`driveInPlace`) and on a driver thread from the first that must (`drive`).

import Dispatch
import Schedulers
import Synchronization

extension DeterministicRun {
  /// What the driver does next.
  enum Step {
    case run(QueuedJob)
    /// Run the run's jobs in turns on the main queue until it settles (main-queue backend).
    case turns
    case resumeIdleWaiter(CheckedContinuation<Void, Never>)
    /// Resume a waiter for idleness that the run's tasks kept waiting through
    /// `idleWaitBound` jobs (the report is noted already).
    case stopWaitingForIdle(CheckedContinuation<Void, Never>)
    case dropCancelledSleeps([VirtualSleepEntry])
    case waitForOutsideWork
    case autoAdvance
    case finish
    case stopSettling(stillQueued: Int)
    /// An exploring run reached its bound: report the livelock, cancel the body, and go on
    /// first in, first out.
    case stopLivelock(jobs: Int)
    /// It ran as many jobs again after that without the body finishing.
    case stuckAfterLivelock(jobs: Int)
    case deadlock(cancelledBefore: Bool, graceEnds: DispatchTime)
  }

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
      case .stuckAfterLivelock(let jobs):
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
      case .deadlock(let cancelledBefore, let graceEnds):
        if let ending = waitOutTheGrace(
          cancelledBefore: cancelledBefore, until: graceEnds, cancelBody: cancelBody)
        {
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
      let decision = RunDecision.next(in: situation(of: state))
      switch decision {
      case .stopLivelock:
        let jobs = state.exploring?.jobs ?? 0
        state.exploring?.livelockStoppedAt = jobs
        return .stopLivelock(jobs: jobs)
      case .giveUpAfterLivelock:
        let exploring = state.exploring
        return .stuckAfterLivelock(
          jobs: (exploring?.jobs ?? 0) - (exploring?.livelockStoppedAt ?? 0))
      case .stopSettling:
        state.stopSettling()
        return .stopSettling(stillQueued: state.settlingStoppedWith ?? 0)
      case .stopWaitingForIdle:
        if state.findings.notIdle == nil {
          state.findings.notIdle = Self.notIdleReport(
            bound: state.idleWaitBound, queued: state.jobs[state.head...].count,
            ownQueued: state.jobs[state.head...].filter(\.isItsOwn).count)
        }
        // The next waiter gets a whole bound of its own.
        state.jobsSinceIdle = 0
        return .stopWaitingForIdle(state.idleWaiters.removeFirst())
      case .turns:
        return .turns
      case .runNextJob:
        guard let job = state.takeJob() else {
          preconditionFailure("Deterministic execution: no job to take where one was queued")
        }
        return .run(job)
      case .dropCancelledSleeps, .resumeIdleWaiter, .finish, .waitForOutsideWork, .autoAdvance,
        .suspectDeadlock:
        break  // idle: below
      }
      // Idle: what the driver does next may put main-actor jobs on the main queue, which the
      // main-queue backend then settles (the steps that only wait leave it settled).
      state.mainQueueSettled = false
      state.jobsSinceIdle = 0
      switch decision {
      case .dropCancelledSleeps:
        // Sleeps whose task was cancelled (and resumed through an actor's job, which `enqueue`
        // cannot recognise) leave the test scheduler before anyone is told the run is idle.
        return .dropCancelledSleeps(state.takeCancelledPlainSleeps() ?? [])
      case .resumeIdleWaiter:
        // The body (or a task of the run) goes on: whatever looked like a deadlock was not.
        state.clearSuspicion()
        state.autoAdvance.foundNothing = false
        return .resumeIdleWaiter(state.idleWaiters.removeFirst())
      case .finish:
        return .finish
      case .waitForOutsideWork:
        state.driverIsWaiting = true
        return .waitForOutsideWork
      case .autoAdvance:
        return .autoAdvance
      case .stopLivelock, .giveUpAfterLivelock, .stopSettling, .stopWaitingForIdle, .turns,
        .runNextJob:
        preconditionFailure("Deterministic execution: \(decision) is not idle, and returned above")
      case .suspectDeadlock:
        // Waited for (briefly) before it is believed: see `foreignExecutorGrace`.
        state.driverIsWaiting = true
        let graceEnds =
          state.graceDeadline
          ?? .now() + .nanoseconds(Nanoseconds.saturating(Self.foreignExecutorGrace))
        state.graceDeadline = graceEnds
        return .deadlock(
          cancelledBefore: state.findings.cancelledBodyFor != nil, graceEnds: graceEnds)
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
    if state.exploringBoundIsDue {
      situation.exploringBound =
        state.exploring?.livelockStoppedAt == nil ? .reached : .reachedAgain
    }
    situation.settlingStopped = state.settlingStoppedWith != nil
    situation.idleWaitBoundDue = state.idleWaitBoundIsDue
    situation.turnsOnTheMainQueue = mainActorJobsStayOnMainQueue
    situation.jobQueued = state.head < state.jobs.count
    situation.settlingBoundDue =
      state.bodyFinished && state.jobsAfterBody + 1 > Self.settlingBound
    situation.mainQueueSettled = state.mainQueueSettled
    // Looked at only when no job is queued, the only case where it decides anything.
    situation.cancelledSleepsPending = !situation.jobQueued && state.hasCancelledPlainSleeps
    situation.idleWaiters = !state.idleWaiters.isEmpty
    situation.bodyFinished = state.bodyFinished
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
    case .turns, .waitForOutsideWork, .finish, .stopSettling, .deadlock, .stuckAfterLivelock:
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
  /// here too: a run crosses no thread at all unless it must wait, for outside work or on a
  /// suspected deadlock. Waiting here would hold the caller's thread (the main queue, which
  /// outside work may need), so the caller hands a waiting step to a driver thread
  /// (`drive(startingWith:)`).
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

extension DeterministicRun.Step {
  /// Whether the step neither waits nor ends the run, so that the caller's thread may perform
  /// it (`driveInPlace`).
  var runsInPlace: Bool {
    switch self {
    case .run, .resumeIdleWaiter, .stopWaitingForIdle, .dropCancelledSleeps, .autoAdvance,
      .stopLivelock:
      true
    case .turns, .waitForOutsideWork, .finish, .stopSettling, .deadlock, .stuckAfterLivelock: false
    }
  }
}

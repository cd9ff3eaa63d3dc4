import Dispatch
import Schedulers
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One deterministic run: a FIFO of every job of its test (see `ActiveRuns` for which jobs
/// those are), drained on the thread of the task that awaits the run, or on a kept driver
/// thread (`driveInPlace`, `DriverThread`).
///
/// Where every job of the run goes through this queue (the custom executors and the runtime
/// hooks, for tasks on the global and main executors), "the queue is empty" is an exact idle
/// signal: nothing in the run can make progress until someone resumes a continuation. The test
/// scheduler's async `advance` uses it to wait until everything a step made runnable has run.
/// Where some do not, the answer is a bound instead: 16 quiet turns of the main queue on the
/// main-queue backend (`DeterministicRun+MainQueueTurns.swift`), the grace for actors with
/// executors of their own (`foreignExecutorGrace`); docs/architecture.md lists every answer.
final class DeterministicRun: DeterministicRunIdleness {
  /// Why the driver stopped waiting for jobs.
  enum Ending: Sendable {
    /// The body finished; `leftovers` describes the work it left pending, if any.
    case finished(leftovers: String?)
    case deadlocked(String)
  }

  struct QueuedJob {
    var job: UnownedJob
    var onMainActor: Bool
    /// Whether the job is the run's own (`ActiveRuns.owner(of:)`): only the run's own jobs mark
    /// the driver's thread as running its jobs, only its own tasks have their dropped errors
    /// reported, and an exploring run chooses among its own jobs only, so that the same seed
    /// makes the same choices whatever else the process enqueues meanwhile.
    var isItsOwn = true
  }

  struct State {
    var jobs: [QueuedJob] = []
    var head = 0
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var outsideWork = 0
    var bodyFinished = false
    /// Jobs run since the body finished, to bound the settling.
    var jobsAfterBody = 0
    var driverIsWaiting = false
    var cancelledBodyForDeadlock = false
    /// What the run saw when it first found itself deadlocked (and cancelled the body): the
    /// caller reports it, on its own task, where the test framework knows the running test.
    var deadlockReport: String?
    /// What the run saw when a job replaced its routing (`JobRouter.takeRoutingBack`): the
    /// caller reports it, whatever else happens, so the outcome does not depend on timing.
    var takeoverReport: String?
    /// Set when the run has ended and handed its jobs back: later jobs are refused.
    var isClosed = false
    /// When the grace for a run that looks deadlocked runs out (see `foreignExecutorGrace`);
    /// `nil` while the run is not suspected. Any job of the run resets it.
    var graceDeadline: DispatchTime?
    /// Plain `Task.sleep`s of the run's tasks waiting on the virtual clock, by id.
    var plainSleeps: [UInt64: PlainSleep] = [:]
    /// The ids of `plainSleeps`, by the address of the sleeping task: a sleeping task that is
    /// enqueued before its wake-up fired was resumed by cancellation.
    var plainSleepsByTask: [UInt: UInt64] = [:]
    var nextPlainSleep: UInt64 = 0
    /// What auto-advance has done, in an auto-advancing run.
    var autoAdvance = AutoAdvanceState()
    /// Tasks started with `DeterministicExecution.background`, cancelled when the body returns.
    var backgroundTasks: [Task<Void, Never>] = []
    /// Where main-actor jobs stay on the main queue (`JobRouter.mainActorJobsStayOnMainQueue`):
    /// whether the main queue was last seen with nothing of the run's to run. Reset by
    /// whatever may have put a main-actor job there.
    var mainQueueSettled = false
    /// Set when the settling bound stopped a turn: how many jobs were still queued.
    var settlingStoppedWith: Int?
    /// In an exploring run, what picks the next job; `nil`: first in, first out.
    var chooser: ScheduleChooser?
    /// The jobs an exploring run has run, counted against its chooser's `maxJobs`.
    var exploredJobs = 0
    /// Set when an exploring run reached its chooser's `maxJobs` and was stopped as a
    /// livelock: how many jobs it had run then.
    var livelockStoppedAt: Int?
    /// The errors the run's tasks dropped (`TaskEndingWatch.dropped`), handed over under the
    /// lock when the run ends, for the caller's thread to report.
    var droppedErrors: [String] = []
  }

  let state = Mutex(State())
  private let wakeDriver = DispatchSemaphore(value: 0)
  /// Whether the run is in progress, so that jobs are routed to it (see `ActiveRuns`).
  let isActive = Atomic<Bool>(false)
  /// When the job now running started, in real and in thread CPU time: the real time since
  /// then bounds the error in a plain sleep's deadline (see `PlainSleeps`).
  let jobStart = JobStart()
  /// Whether plain sleeps go on a virtual clock, which needs `jobStart` (two clock readings,
  /// one a system call, per job): only runs with a test scheduler.
  var tracksPlainSleeps: Bool { scheduleVirtualSleep != nil }
  /// The backend that routes jobs to this run, and runs them.
  let router: any JobRouter
  /// Whether main-actor jobs bypass the run and stay on the main queue, so that the run runs
  /// its own jobs in turns there (`DeterministicRun+MainQueueTurns.swift`).
  let mainActorJobsStayOnMainQueue: Bool
  /// Schedules a wake-up after a virtual duration on the run's test scheduler, if it has one.
  let scheduleVirtualSleep: ScheduleVirtualSleep?
  /// Describes the run's pending sleepers, for failure messages.
  let describePending: @Sendable () -> String?
  /// How long the driver waits in real time for outside work before it gives up.
  let outsideWorkTimeout: Duration
  /// The clock the run moves by itself when nothing else can go on; `nil` when time moves
  /// only by the body's advances.
  let autoAdvance: AutoAdvanceClock?
  /// The virtual time since the run started, on its test scheduler; `nil` without one.
  let elapsed: (@Sendable () -> Duration?)?
  /// Watches the run's tasks end, to report the errors nobody can await; `nil` when the run
  /// lets them go, or the process cannot tell how a task ended.
  let taskEndings: TaskEndingWatch?

  init(
    router: any JobRouter,
    scheduleVirtualSleep: ScheduleVirtualSleep?,
    describePending: @escaping @Sendable () -> String?,
    outsideWorkTimeout: Duration,
    elapsed: (@Sendable () -> Duration?)? = nil,
    autoAdvance: AutoAdvanceClock? = nil,
    droppedTaskErrors: DeterministicExecution.DroppedTaskErrors = .reported
  ) {
    self.elapsed = elapsed
    self.taskEndings = droppedTaskErrors == .reported ? TaskEndingWatch() : nil
    self.router = router
    self.mainActorJobsStayOnMainQueue = router.mainActorJobsStayOnMainQueue
    self.scheduleVirtualSleep = scheduleVirtualSleep
    self.describePending = describePending
    self.outsideWorkTimeout = outsideWorkTimeout
    self.autoAdvance = autoAdvance
  }

  // MARK: Enqueueing

  /// Queues a job, unless the run has closed: a thread may have read `active` just before the
  /// run ended, and its job must then go to whoever is in charge now rather than be lost.
  /// `isItsOwn` says whether the job is the run's own (`ActiveRuns.owner(of:)`), or one that a
  /// run taking every job takes from elsewhere. A job of its own is progress, and restarts the
  /// grace of a run that looks deadlocked; another is not, so that an unrelated test that
  /// keeps polling cannot put the report off. Once the body has
  /// finished, the run only lets its own tasks settle: other jobs go to the platform's
  /// executors, or a test that keeps yielding elsewhere would keep this run from ever ending.
  /// `isWakeUp`: a sleep's wake-up that the run fires, not a job the current task enqueued for
  /// itself (see `ScheduleChooser.noteEnqueue`).
  func enqueue(
    _ job: UnownedJob, onMainActor: Bool, isItsOwn: Bool = true,
    isWakeUp: Bool = false
  ) {
    // A task a task of the run enqueues is the run's: its later jobs may come where no task
    // is current (a wake-up from a real-time sleep, a resumption from a Dispatch callback),
    // and are then known by address.
    if DeterministicRun.current === self {
      ActiveRuns.noteTask(unsafeBitCast(job, to: UInt.self), of: self)
    }
    enum Outcome {
      case queued(wake: Bool, cancelledSleep: PlainSleep?)
      case refused, notItsOwn
    }
    let outcome = state.withLock { state -> Outcome in
      guard !state.isClosed else { return .refused }
      if !isItsOwn, state.bodyFinished { return .notItsOwn }
      state.chooser?.noteEnqueue(job, isWakeUp: isWakeUp)
      if isItsOwn { state.clearSuspicion() }
      let cancelledSleep = dropWakeUpIfCancelled(job, &state)
      state.jobs.append(
        QueuedJob(
          job: job, onMainActor: onMainActor, isItsOwn: isItsOwn))
      if let cancelledSleep { state.jobs.append(cancelledSleep.wakeUp) }
      defer { state.driverIsWaiting = false }
      return .queued(wake: state.driverIsWaiting, cancelledSleep: cancelledSleep)
    }
    switch outcome {
    case .refused:
      router.reenqueue(job, onMainActor: onMainActor)
    case .notItsOwn:
      router.forwardToPlatform(job, onMainActor: onMainActor)
    case .queued(let wake, let cancelledSleep):
      // Outside the run's lock: the test scheduler takes its own.
      cancelledSleep?.entry?.cancel()
      if wake { wakeDriver.signal() }
    }
  }

  /// Marks the calling task (the body's) as the run's own.
  func adoptCurrentTask() {
    guard let address = withUnsafeCurrentTask(body: { $0.map { unsafeBitCast($0, to: UInt.self) } })
    else { return }
    ActiveRuns.noteTask(address, of: self)
  }

  /// Enqueues on this run while it is in progress; once it has ended, on whoever is in charge
  /// now (the platform executors, or another run), so no job is ever lost.
  func enqueueOrForward(_ job: UnownedJob, onMainActor: Bool, isWakeUp: Bool = false) {
    if isActive.load(ordering: .acquiring) {
      enqueue(job, onMainActor: onMainActor, isWakeUp: isWakeUp)
    } else {
      router.reenqueue(job, onMainActor: onMainActor)
    }
  }

  // MARK: Idle, outside work, the body

  /// Suspends the caller until no job of the run is runnable.
  func untilIdle() async {
    await withCheckedContinuation { continuation in
      let closed = state.withLock { state -> Bool in
        if !state.isClosed { state.idleWaiters.append(continuation) }
        return state.isClosed
      }
      if closed { continuation.resume() }  // nothing of the run is left to wait for
    }
  }

  func beginOutsideWork() {
    state.withLock { $0.outsideWork += 1 }
  }

  func endOutsideWork() {
    let wake = state.withLock { state -> Bool in
      state.outsideWork -= 1
      state.autoAdvance.foundNothing = false
      state.mainQueueSettled = false
      state.clearSuspicion()
      defer { state.driverIsWaiting = false }
      return state.driverIsWaiting
    }
    if wake { wakeDriver.signal() }
  }

  func bodyDidFinish() {
    // Background work ends with the body: cancelled, then settled like any task it left.
    for task in state.withLock({ $0.backgroundTasks }) { task.cancel() }
    let wake = state.withLock { state -> Bool in
      state.bodyFinished = true
      state.mainQueueSettled = false
      defer { state.driverIsWaiting = false }
      return state.driverIsWaiting
    }
    if wake { wakeDriver.signal() }
  }

  // MARK: The driver

  /// What the driver does next.
  enum Step {
    case run(QueuedJob)
    /// Run the run's jobs in turns on the main queue until it settles (main-queue backend).
    case turns
    case resumeIdleWaiter(CheckedContinuation<Void, Never>)
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

  /// How many jobs the run still runs once the body has finished, letting the tasks the body
  /// left settle, before it ends anyway: a leaked task that never suspends on anything but
  /// `Task.yield()` would otherwise keep it from ever returning.
  static let settlingBound = 10_000

  /// How long, in real time, a run that looks deadlocked waits for a job to come back from an
  /// actor with its own executor (a custom `SerialExecutor`, whose jobs the run does not see)
  /// before it believes it and reports the deadlock.
  ///
  /// A bounded total: jobs of the run's own that arrive meanwhile are run and start it again,
  /// as do the end of outside work and the body going on. Jobs of unrelated tests running in
  /// parallel (a poller's sleeps, say) cannot put the report off: they never reach a run side
  /// by side, and a run that takes every job runs them without starting the grace again.
  static let foreignExecutorGrace: Duration = .milliseconds(100)

  /// Drains the run's jobs on the calling thread until the body has finished and nothing is
  /// runnable, or until the run deadlocks. `cancelBody` is called once, at the first deadlock,
  /// to give the body a chance to unwind.
  ///
  /// `first` is a step already decided (by `driveInPlace`, which hands over the first step that
  /// must wait).
  func drive(startingWith first: Step? = nil, cancelBody: @escaping @Sendable () -> Void) -> Ending
  {
    var decided = first
    while true {
      let step = decided ?? nextStep()
      decided = nil
      switch step {
      case .turns:
        runTurnsOnMainQueue()
      case .run, .resumeIdleWaiter, .dropCancelledSleeps, .autoAdvance, .stopLivelock:
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
        // A job that arrives meanwhile (back from a foreign executor, or of an unrelated test
        // where runs take turns) is run, and the question asked again; the grace goes on
        // running out unless the job was the run's own.
        if wakeDriver.wait(timeout: graceEnds) == .success { continue }
        state.withLock {
          $0.driverIsWaiting = false
          $0.clearSuspicion()
        }
        if cancelledBefore {
          return .deadlocked(
            "the body is suspended, nothing in the run can resume it, and it did not finish when cancelled"
              + pendingSuffix() + backendSuffix())
        }
        // Described now, before the cancellation removes the sleepers it would name.
        let report =
          "Deterministic run deadlocked: the body is suspended and nothing in the run can resume it (no job is runnable, no outside work is pending)."
          + pendingSuffix() + " The body was cancelled."
          + " (If it awaits an actor with its own executor, whose jobs the run cannot see, that actor did not answer within \(Self.foreignExecutorGrace).)"
          + backendSuffix()
        state.withLock {
          $0.cancelledBodyForDeadlock = true
          $0.deadlockReport = report
        }
        cancelBody()
      }
    }
  }

  /// What the driver does next, decided under the run's lock.
  private func nextStep() -> Step {
    state.withLock { state -> Step in
      if state.exploringBoundIsDue {
        guard let stoppedAt = state.livelockStoppedAt else {
          state.livelockStoppedAt = state.exploredJobs
          return .stopLivelock(jobs: state.exploredJobs)
        }
        return .stuckAfterLivelock(jobs: state.exploredJobs - stoppedAt)
      }
      if let stillQueued = state.settlingStoppedWith {
        return .stopSettling(stillQueued: stillQueued)
      }
      if mainActorJobsStayOnMainQueue {
        if state.head < state.jobs.count || !state.mainQueueSettled { return .turns }
      } else if let job = state.takeJob() {
        return .run(job)
      } else if let stillQueued = state.settlingStoppedWith {
        return .stopSettling(stillQueued: stillQueued)
      }
      // What the driver does next may put main-actor jobs on the main queue, which the
      // main-queue backend then settles (the steps below that only wait leave it settled).
      defer { state.mainQueueSettled = false }
      // Idle: before anyone is told so, sleeps whose task was cancelled (and resumed through
      // an actor's job, which `enqueue` cannot recognise) leave the test scheduler.
      if let cancelled = state.takeCancelledPlainSleeps() {
        return .dropCancelledSleeps(cancelled)
      }
      if !state.idleWaiters.isEmpty {
        // The body (or a task of the run) goes on: whatever looked like a deadlock was not.
        state.clearSuspicion()
        state.autoAdvance.foundNothing = false
        return .resumeIdleWaiter(state.idleWaiters.removeFirst())
      }
      // Once the body has finished and nothing is runnable, the run ends: outside work still
      // pending (a plain sleep's real-time timer, say) no longer holds it; its job, if it
      // ever comes, goes to whoever is in charge then.
      if state.bodyFinished { return .finish }
      if state.outsideWork > 0 {
        state.driverIsWaiting = true
        return .waitForOutsideWork
      }
      // Nothing can go on, so virtual time moves to the next pending action.
      if shouldAutoAdvance(state) { return .autoAdvance }
      // Waited for (briefly) before it is believed: see `foreignExecutorGrace`.
      state.driverIsWaiting = true
      if state.graceDeadline == nil {
        state.graceDeadline =
          .now() + .nanoseconds(Nanoseconds.saturating(Self.foreignExecutorGrace))
      }
      return .deadlock(
        cancelledBefore: state.cancelledBodyForDeadlock, graceEnds: state.graceDeadline!)
    }
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
          run(queued, onMainActor: true)
        }
      } else {
        run(queued, onMainActor: queued.onMainActor)
      }
    case .resumeIdleWaiter(let continuation):
      continuation.resume()
    case .dropCancelledSleeps(let entries):
      for entry in entries { entry.cancel() }
    case .autoAdvance:
      if let report = autoAdvanceStep(onMainQueue: onMainQueue) {
        state.withLock {
          $0.cancelledBodyForDeadlock = true
          $0.deadlockReport = report
        }
        cancelBody()
      }
    case .stopLivelock(let jobs):
      state.withLock { state in
        state.chooser?.stopChoosing()
        let trace = state.chooser?.describeTrace(limit: 12) ?? ""
        let report = """
          The exploring run took \(jobs) jobs without finishing \
          (Exploration.maxJobsPerSchedule): a loop that waits by yielding starves what it \
          waits for in this order, or the test runs that many jobs (raise the bound then). \
          The body was cancelled, and the run went on first in, first out. What ran: \(trace)
          """
        state.cancelledBodyForDeadlock = true
        if state.deadlockReport == nil { state.deadlockReport = report }
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
    func runJob() { router.run(queued.job, onMainActor: onMainActor) }
    guard queued.isItsOwn else { return runJob() }
    ActiveRuns.runningOwnJob(of: self) {
      if let taskEndings { taskEndings.running(queued.job, runJob) } else { runJob() }
    }
    if let takeover = router.takeRoutingBack() {
      state.withLock { if $0.takeoverReport == nil { $0.takeoverReport = takeover } }
    }
  }

  /// The report of the errors the run's tasks dropped (see `DroppedTaskErrors.swift`), if any.
  /// Read once the run has ended.
  var droppedErrorsReport: String? {
    let errors = state.withLock { $0.droppedErrors }
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
      var step = nextStep()
      while step.runsInPlace {
        perform(step, onMainQueue: onMainQueue, cancelBody: cancelBody)
        step = nextStep()
      }
      return step
    }
  }

  /// The deadlock the run found and answered by cancelling the body, if any.
  var deadlockReport: String? { state.withLock { $0.deadlockReport } }

  /// What the run said when a job replaced its routing, if one did. Read once the run has
  /// ended.
  var takeoverReport: String? { state.withLock { $0.takeoverReport } }

  /// Names the backend in a failure report, with what about it could explain the failure.
  private func backendSuffix() -> String {
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
      state.plainSleeps.sorted { $0.key < $1.key }.map(\.value).filter(\.isBeyondTheClock)
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

  /// Hands every job still queued back to the runtime, so none is lost when the run ends.
  ///
  /// Plain `Task.sleep`s still waiting on the virtual clock leave it and go on sleeping outside
  /// the run, in real time, for the virtual time they had left (a sleep "until cancelled" goes
  /// on until cancelled); a sleep whose task was cancelled wakes at once and finds it so.
  func forwardRemainingJobs() {
    // Outside the lock: letting go of a task may run deinitializers that enqueue.
    if let dropped = taskEndings?.stopWatching() { state.withLock { $0.droppedErrors = dropped } }
    let (remaining, sleeps) = state.withLock { state in
      defer {
        state.isClosed = true
        state.jobs.removeAll()
        state.head = 0
        state.plainSleeps.removeAll()
        state.plainSleepsByTask.removeAll()
      }
      return (Array(state.jobs[state.head...]), Array(state.plainSleeps.values))
    }
    for queued in remaining { router.reenqueue(queued.job, onMainActor: queued.onMainActor) }
    for sleep in sleeps {
      let left = sleep.entry?.remaining() ?? sleep.delay
      sleep.entry?.cancel()
      let cancelled = sleep.task?.value.isCancelled ?? false
      router.reenqueue(
        sleep.wakeUp.job, onMainActor: sleep.wakeUp.onMainActor, after: cancelled ? .zero : left)
    }
  }
}

extension DeterministicRun.Step {
  /// Whether the step neither waits nor ends the run, so that the caller's thread may perform
  /// it (`driveInPlace`).
  var runsInPlace: Bool {
    switch self {
    case .run, .resumeIdleWaiter, .dropCancelledSleeps, .autoAdvance, .stopLivelock: true
    case .turns, .waitForOutsideWork, .finish, .stopSettling, .deadlock, .stuckAfterLivelock: false
    }
  }
}

extension DeterministicRun.State {
  /// Takes the next job off the queue, first in first out; `nil` when none is queued, or when
  /// the body has finished and the settling bound is reached (then `settlingStoppedWith` is
  /// set).
  mutating func takeJob() -> DeterministicRun.QueuedJob? {
    guard head < jobs.count else { return nil }
    if bodyFinished {
      jobsAfterBody += 1
      if jobsAfterBody > DeterministicRun.settlingBound {
        settlingStoppedWith = jobs.count - head
        return nil
      }
    }
    if let chooser {
      exploredJobs += 1
      return takeChosenJob(chooser)
    }
    let job = jobs[head]
    head += 1
    autoAdvance.foundNothing = false
    if head == jobs.count {
      jobs.removeAll(keepingCapacity: true)
      head = 0
    }
    return job
  }

  /// Takes the job `chooser` picks among the legal next ones: every queued job of the run's
  /// own that is not a main-actor job, and the first of its own main-actor jobs (the main actor
  /// keeps its order). A job that is not the run's own (another test's, serialised through the
  /// run, or one enqueued where nothing says whose it is) is never a candidate: it runs when it
  /// reaches the head of the queue, unchosen, and a main-actor job of that kind does not hold
  /// back the run's own. So the candidates, and the choices a seed makes, depend on the run's
  /// own jobs alone, whatever else the process enqueues and whenever it arrives.
  private mutating func takeChosenJob(_ chooser: ScheduleChooser) -> DeterministicRun.QueuedJob {
    if !jobs[head].isItsOwn {
      let job = jobs[head]
      head += 1
      if head == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        head = 0
      }
      return job
    }
    var candidates: [Int] = []
    var sawMainActorJob = false
    for index in head..<jobs.count where jobs[index].isItsOwn {
      if jobs[index].onMainActor {
        if sawMainActorJob { continue }
        sawMainActorJob = true
      }
      candidates.append(index)
    }
    let chosen = candidates[chooser.choose(among: candidates.map { jobs[$0].job })]
    let job = jobs.remove(at: chosen)
    autoAdvance.foundNothing = false
    if head == jobs.count {
      jobs.removeAll(keepingCapacity: true)
      head = 0
    }
    return job
  }

  /// Whether an exploring run has reached a bound of its chooser's `maxJobs`: the first (stop
  /// it as a livelock), or as many jobs again after that (it is stuck). The driver acts on it;
  /// the main queue's turns hand back to the driver when it is due.
  var exploringBoundIsDue: Bool {
    guard let chooser else { return false }
    return exploredJobs >= (livelockStoppedAt ?? 0) + chooser.maxJobs
  }

  /// The run made progress: it no longer looks deadlocked.
  mutating func clearSuspicion() {
    graceDeadline = nil
  }

}

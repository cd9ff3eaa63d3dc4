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

  let state = Mutex(State())
  /// Wakes the driver when it waits for a job, the end of outside work or the body.
  let wakeDriver = DispatchSemaphore(value: 0)
  /// Whether the run is in progress, so that jobs are routed to it (see `ActiveRuns`).
  let isActive = Atomic<Bool>(false)
  /// How many of the run's jobs are running now: never more than one (checked where
  /// `checksContracts`).
  let jobsRunning = Atomic<Int>(0)
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
  /// The id of the body's task (`RuntimeABI.id(of:)`), so that a report can point it out
  /// among the run's tasks; 0 until the task is made (`ActiveRuns.noteBodysTask` sets it).
  let bodysTaskID = Atomic<UInt32>(0)
  /// Whether the run's tasks prefer the router's ``JobRouter/hopExecutor``, so that their hops
  /// between actors are jobs of the run, which an exploring run orders (`HopsAsJobs`). Only
  /// exploring runs: a first-in first-out run keeps its order and its cost.
  let hopsAreJobs: Bool
  /// How many jobs a first-in first-out run takes without once becoming idle while a task
  /// awaits its idleness: `DeterministicRun.idleWaitBound`, or the tests' override.
  let idleWaitBound: Int

  init(
    router: any JobRouter,
    scheduleVirtualSleep: ScheduleVirtualSleep?,
    describePending: @escaping @Sendable () -> String?,
    outsideWorkTimeout: Duration,
    elapsed: (@Sendable () -> Duration?)? = nil,
    autoAdvance: AutoAdvanceClock? = nil,
    droppedTaskErrors: DeterministicExecution.DroppedTaskErrors = .reported,
    hopsAreJobs: Bool = false
  ) {
    self.hopsAreJobs = hopsAreJobs
    self.elapsed = elapsed
    self.taskEndings = droppedTaskErrors == .reported ? TaskEndingWatch() : nil
    self.router = router
    self.mainActorJobsStayOnMainQueue = router.mainActorJobsStayOnMainQueue
    self.scheduleVirtualSleep = scheduleVirtualSleep
    self.describePending = describePending
    self.outsideWorkTimeout = outsideWorkTimeout
    self.autoAdvance = autoAdvance
    let bound = Self.idleWaitBoundOverride ?? Self.idleWaitBound
    precondition(bound > 0, "Deterministic execution: idleWaitBoundOverride needs a bound above 0")
    self.idleWaitBound = bound
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
      if isItsOwn {
        // Only its own: the chooser keys what it notes by job address, and another test's
        // jobs come when timing says, so a note of theirs (a poller's yields, counted as a
        // task that keeps yielding) would fall on an own job that reuses the address.
        state.exploring?.chooser.noteEnqueue(job, isWakeUp: isWakeUp)
      }
      let cancelledSleep = dropWakeUpIfCancelled(job, &state)
      state.jobs.append(
        QueuedJob(
          job: job, onMainActor: onMainActor, isItsOwn: isItsOwn))
      if let cancelledSleep { state.jobs.append(cancelledSleep.wakeUp) }
      // A job of the run's own is progress: the run no longer looks deadlocked.
      let wake = state.idle.wake(endingSuspicion: isItsOwn, unsettlingTheMainQueue: false)
      return .queued(wake: wake, cancelledSleep: cancelledSleep)
    }
    switch outcome {
    case .refused:
      router.handBack(job, onMainActor: onMainActor)
    case .notItsOwn:
      router.sendToPlatform(job, onMainActor: onMainActor)
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
  func enqueueOrHandBack(_ job: UnownedJob, onMainActor: Bool, isWakeUp: Bool = false) {
    if isActive.load(ordering: .acquiring) {
      enqueue(job, onMainActor: onMainActor, isWakeUp: isWakeUp)
    } else {
      router.handBack(job, onMainActor: onMainActor)
    }
  }

  // MARK: Idle, outside work, the body

  /// Suspends the caller until no job of the run is runnable.
  func untilIdle() async {
    await withCheckedContinuation { continuation in
      let closed = state.withLock { state -> Bool in
        guard !state.isClosed else { return true }
        // The bound on the wait counts from here: the jobs before it were no one's wait.
        if state.idleWaiters.isEmpty { state.jobsSinceIdle = 0 }
        state.idleWaiters.append(continuation)
        return false
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
      return state.idle.wake(endingSuspicion: true, unsettlingTheMainQueue: true)
    }
    if wake { wakeDriver.signal() }
  }

  func bodyDidFinish() {
    // Background work ends with the body: cancelled, then settled like any task it left.
    for task in state.withLock({ $0.backgroundTasks }) { task.cancel() }
    let wake = state.withLock { state -> Bool in
      state.noteBodyFinished()
      return state.idle.wake(endingSuspicion: false, unsettlingTheMainQueue: true)
    }
    if wake { wakeDriver.signal() }
  }

  /// Hands every job still queued back to the runtime, so none is lost when the run ends, and
  /// resumes every waiter for its idleness.
  ///
  /// Plain `Task.sleep`s still waiting on the virtual clock leave it and go on sleeping outside
  /// the run, in real time, for the virtual time they had left (a sleep "until cancelled" goes
  /// on until cancelled); a sleep whose task was cancelled wakes at once and finds it so.
  ///
  /// A waiter is still waiting where the run ended before serving it: the settling bound or a
  /// livelock given up on end the run while jobs are queued, and a task on an executor of its
  /// own may begin to wait while the driver waits. Nothing of the run is left to wait for, so
  /// it goes on, as one that comes after the run has closed does (`untilIdle`).
  func handBackRemainingJobs() {
    // Outside the lock: letting go of a task may run deinitializers that enqueue.
    if let dropped = taskEndings?.stopWatching() {
      state.withLock { $0.findings.droppedErrors = dropped }
    }
    let (remaining, sleeps, idleWaiters) = state.withLock { state in
      defer {
        state.phase = .closed
        state.jobs.removeAll()
        state.head = 0
        state.plainSleeps.byID.removeAll()
        state.plainSleeps.idsByTask.removeAll()
        state.idleWaiters.removeAll()
        state.checkInvariants()
      }
      return (
        Array(state.jobs[state.head...]), Array(state.plainSleeps.byID.values), state.idleWaiters
      )
    }
    for queued in remaining { router.handBack(queued.job, onMainActor: queued.onMainActor) }
    for sleep in sleeps {
      let left = sleep.entry?.remaining() ?? sleep.delay
      sleep.entry?.cancel()
      let cancelled = sleep.task?.value.isCancelled ?? false
      router.handBack(
        sleep.wakeUp.job, onMainActor: sleep.wakeUp.onMainActor, after: cancelled ? .zero : left)
    }
    // Last, and outside the lock: the run is no longer routed to, so each waiter's task goes
    // on outside it, beside the jobs just handed back.
    for waiter in idleWaiters { waiter.resume() }
  }
}

// MARK: Taking

extension DeterministicRun.State {
  /// Takes the next job off the queue, first in first out, or the one an exploring run's
  /// chooser picks; `nil` when none is queued. Counts it against the settling bound, which
  /// `RunDecision` checks before it answers with a job.
  mutating func takeJob() -> DeterministicRun.QueuedJob? {
    guard head < jobs.count else { return nil }
    switch phase {
    case .settling(let jobsAfterBody): phase = .settling(jobsAfterBody: jobsAfterBody + 1)
    case .bodyRunning, .closed: break
    }
    jobsSinceIdle += 1
    if exploring != nil {
      let job = takeChosenJob(exploring!.chooser)
      // Only the run's own jobs count against the bound: how many of another test's come
      // meanwhile depends on timing, and counting them moved the livelock's stop, so its seed
      // did not replay when the suite ran beside busy work.
      if job.isItsOwn { exploring!.jobs += 1 }
      return job
    }
    return takeHead()
  }

  /// Takes the job at the head of the queue, which must not be empty.
  private mutating func takeHead() -> DeterministicRun.QueuedJob {
    let job = jobs[head]
    head += 1
    noteTaken()
    return job
  }

  /// What taking any job does: the clock may have something to run again, and a queue
  /// emptied is compacted.
  private mutating func noteTaken() {
    autoAdvance.foundNothing = false
    if head == jobs.count {
      jobs.removeAll(keepingCapacity: true)
      head = 0
    }
  }

  /// Takes the job `chooser` picks among the legal next ones: every queued job of the run's
  /// own that is not a main-actor job, and the first of its own main-actor jobs (the main actor
  /// keeps its order). A job that is not the run's own (another test's, serialised through the
  /// run, or one enqueued where nothing says whose it is) is never a candidate: it runs when it
  /// reaches the head of the queue, unchosen, and a main-actor job of that kind does not hold
  /// back the run's own. So the candidates, and the choices a seed makes, depend on the run's
  /// own jobs alone, whatever else the process enqueues and whenever it arrives.
  private mutating func takeChosenJob(_ chooser: ScheduleChooser) -> DeterministicRun.QueuedJob {
    // As a first-in first-out run takes every job it holds.
    if !jobs[head].isItsOwn { return takeHead() }
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
    noteTaken()
    return job
  }
}

// The state of a deterministic run, under its lock: where the run is (its phase), the queue of
// jobs, outside work, the suspicion of a deadlock, the plain sleeps, auto-advance and
// exploration. Its invariants: a job is in `jobs[head...]` until taken, once; the phase only
// moves forward (the body running, then settling, then closed); once closed, nothing is
// queued.

import Dispatch
import Schedulers
import Synchronization

extension DeterministicRun {
  /// Where a run is. It only moves forward: the body running, then the tasks it left
  /// settling, then closed.
  enum Phase {
    /// The body runs.
    case bodyRunning
    /// The body has finished; the tasks it left settle. `jobsAfterBody` counts the jobs run
    /// since, against `settlingBound` (`RunDecision` stops the settling there).
    case settling(jobsAfterBody: Int)
    /// The run has ended and handed its jobs back: later jobs are refused.
    case closed
  }

  /// What the run knows of its own idleness between the driver's steps: whether the driver
  /// sleeps on `wakeDriver` (so that whatever changes the state wakes it), whether the run
  /// looks deadlocked and until when its grace runs (see `foreignExecutorGrace`), and whether
  /// the main queue was last seen with nothing of the run's to run (the main-queue backend:
  /// `JobRouter.mainActorJobsStayOnMainQueue`). One state, seen three ways: the driver waits
  /// only on an idle run, which the main queue's turns have left unsettled.
  enum Idle {
    /// Nothing is known: the driver is at work, or something may have put a main-actor job
    /// of the run's on the main queue since the run was last idle.
    case unsettled
    /// The main queue's turns last found nothing of the run's to run.
    case mainQueueSettled
    /// The driver sleeps until outside work ends, or a job comes.
    case waitingForOutsideWork
    /// The run looks deadlocked: the driver sleeps until the grace ends at `until`, or a job
    /// comes.
    case waitingOutTheGrace(until: DispatchTime)
    /// The run looks deadlocked, and a job not its own (or the body's end) woke the driver:
    /// the grace goes on running out at `graceEnds`, since only the run's own jobs are
    /// progress. `mainQueueSettled` as in `.mainQueueSettled`.
    case suspected(graceEnds: DispatchTime, mainQueueSettled: Bool)
  }

  struct State {
    var phase = Phase.bodyRunning
    /// What the run found, for the caller to report when it ends.
    var findings = Findings()
    /// The queue: the jobs from `head` on are still to run.
    var jobs: [QueuedJob] = []
    var head = 0
    /// Those waiting for the run to be idle (an async `advance`, `idle()`).
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// The jobs taken since the run was last idle (nothing queued), since a waiter for idleness
    /// came to a run that had none, or since the run last stopped a waiter at its
    /// `idleWaitBound`.
    var jobsSinceIdle = 0
    /// How much work begun with `withOutsideWork` is still pending.
    var outsideWork = 0
    /// Whether the driver waits, the run looks deadlocked, the main queue is settled.
    var idle = Idle.unsettled
    /// Plain `Task.sleep`s of the run's tasks waiting on the virtual clock.
    var plainSleeps = PlainSleeps()
    /// What auto-advance has done, in an auto-advancing run.
    var autoAdvance = AutoAdvanceState()
    /// Tasks started with `DeterministicExecution.background`, cancelled when the body returns.
    var backgroundTasks: [Task<Void, Never>] = []
    /// In an exploring run, what picks the next job and how far it went; `nil`: first in, first
    /// out.
    var exploring: Exploring?
  }

  /// What a run found, which the caller reports when the run ends, on its own task, where the
  /// test framework knows the running test.
  struct Findings {
    /// What made the run cancel the body (a deadlock, as it first saw it; a livelock; an
    /// auto-advance bound); `nil` while it has not.
    var cancelledBodyFor: String?
    /// What the run saw when a job replaced its routing (`JobRouter.takeRoutingBack`):
    /// reported whatever else happens, so the outcome does not depend on timing.
    var takeover: String?
    /// The errors the run's tasks dropped (`TaskEndingWatch.dropped`), handed over when the run
    /// ends.
    var droppedErrors: [String] = []
    /// What the run said when it stopped a waiter for its idleness at `idleWaitBound`, the
    /// first time; reported when the run ends, as a failure that does not stop the body.
    var notIdle: String?
  }

  /// The plain `Task.sleep`s of a run's tasks waiting on its virtual clock.
  struct PlainSleeps {
    /// Each sleep, by id.
    var byID: [UInt64: PlainSleep] = [:]
    /// The ids of the sleeps, by the address of the sleeping task: a sleeping task that is
    /// enqueued before its wake-up fired was resumed by cancellation.
    var idsByTask: [UInt: UInt64] = [:]
    /// The id given last.
    var lastID: UInt64 = 0
  }

  /// An exploring run's chooser, and its jobs counted against the chooser's `maxJobs`.
  struct Exploring {
    let chooser: ScheduleChooser
    /// The run's own jobs it has run.
    var jobs = 0
    /// Set when the run reached `maxJobs` and was stopped as a livelock: how many jobs it had
    /// run then.
    var livelockStoppedAt: Int?
  }

  /// How many jobs the run still runs once the body has finished, letting the tasks the body
  /// left settle, before it ends anyway: a leaked task that never suspends on anything but
  /// `Task.yield()` would otherwise keep it from ever returning.
  static let settlingBound = 10_000

  /// How many jobs a first-in first-out run takes without once becoming idle while a task
  /// awaits its idleness (an async `advance`, `idle()`), before it tells the waiter anyway and
  /// reports it. A task that keeps running, such as a loop that waits by yielding for what the
  /// waiter does after it (`while !ready { await Task.yield() }` while the test awaits
  /// `advance()`), keeps the run from ever being idle: the waiter, and the test, would wait
  /// forever. As many as the test scheduler's `run()` runs actions by default: a test that
  /// means to run that many jobs before its run is idle is rare, a hang is not.
  static let idleWaitBound = 100_000

  /// A smaller `idleWaitBound` for the runs started in its scope: the tests of the bound, so
  /// that they run a tenth of the jobs (each takes a second under the thread sanitizer beside
  /// busy work, not a minute).
  @TaskLocal static var idleWaitBoundOverride: Int?
}

extension DeterministicRun.State {
  /// Whether the body has finished (the run settles, or has closed).
  var bodyFinished: Bool {
    switch phase {
    case .bodyRunning: false
    case .settling, .closed: true
    }
  }

  /// Whether the run has ended and handed its jobs back.
  var isClosed: Bool {
    switch phase {
    case .closed: true
    case .bodyRunning, .settling: false
    }
  }

  /// Jobs run since the body finished.
  var jobsAfterBody: Int {
    switch phase {
    case .settling(let jobsAfterBody): jobsAfterBody
    case .bodyRunning, .closed: 0
    }
  }

  /// The body has finished: its tasks settle from now on.
  mutating func noteBodyFinished() {
    switch phase {
    case .bodyRunning: phase = .settling(jobsAfterBody: 0)
    case .settling, .closed: break
    }
  }

  /// The run cancels its body for `report`; the first report is kept unless `replacing`.
  mutating func noteBodyCancelled(for report: String, replacing: Bool) {
    if replacing || findings.cancelledBodyFor == nil { findings.cancelledBodyFor = report }
  }

  /// Where an exploring run stands against its chooser's `maxJobs`: reached for the first time
  /// (stop it as a livelock), or as many jobs again after that (it is stuck).
  var exploringBound: RunSituation.ExploringBound {
    guard let exploring else { return .notReached }
    let since = exploring.livelockStoppedAt ?? 0
    guard exploring.jobs >= since + exploring.chooser.maxJobs else { return .notReached }
    guard exploring.livelockStoppedAt != nil else { return .reached(jobs: exploring.jobs) }
    return .reachedAgain(jobsSinceLivelock: exploring.jobs - since)
  }
}

extension DeterministicRun.Idle {
  /// Whether the driver sleeps on `wakeDriver`.
  var driverIsWaiting: Bool {
    switch self {
    case .waitingForOutsideWork, .waitingOutTheGrace: true
    case .unsettled, .mainQueueSettled, .suspected: false
    }
  }

  /// When the grace of a run that looks deadlocked runs out; `nil` while it does not.
  var graceEnds: DispatchTime? {
    switch self {
    case .waitingOutTheGrace(let until): until
    case .suspected(let graceEnds, _): graceEnds
    case .unsettled, .mainQueueSettled, .waitingForOutsideWork: nil
    }
  }

  /// Whether the main queue was last seen with nothing of the run's to run.
  var mainQueueSettled: Bool {
    switch self {
    case .mainQueueSettled: true
    case .suspected(_, let mainQueueSettled): mainQueueSettled
    case .unsettled, .waitingForOutsideWork, .waitingOutTheGrace: false
    }
  }

  /// The driver awake, with the grace running out at `graceEnds` if the run looks deadlocked.
  private init(graceEnds: DispatchTime?, mainQueueSettled: Bool) {
    if let graceEnds {
      self = .suspected(graceEnds: graceEnds, mainQueueSettled: mainQueueSettled)
    } else {
      self = mainQueueSettled ? .mainQueueSettled : .unsettled
    }
  }

  /// Something happened that the driver must see: it no longer waits. `endingSuspicion`: it
  /// was progress (a job of the run's own, the end of outside work) or the grace ran out, and
  /// the run no longer looks deadlocked; `unsettlingTheMainQueue`: it may have put a main-actor
  /// job on the main queue (the end of outside work, the body's). Returns whether the driver
  /// was waiting, for the caller to wake it.
  mutating func wake(endingSuspicion: Bool, unsettlingTheMainQueue: Bool) -> Bool {
    let wasWaiting = driverIsWaiting
    self = Self(
      graceEnds: endingSuspicion ? nil : graceEnds,
      mainQueueSettled: mainQueueSettled && !unsettlingTheMainQueue)
    return wasWaiting
  }

  /// The driver is about to do something that may put main-actor jobs on the main queue.
  mutating func unsettleTheMainQueue() {
    guard !driverIsWaiting else { return }
    self = Self(graceEnds: graceEnds, mainQueueSettled: false)
  }

  /// The main queue's turns found nothing of the run's to run.
  mutating func noteMainQueueSettled() {
    guard !driverIsWaiting else { return }
    self = Self(graceEnds: graceEnds, mainQueueSettled: true)
  }
}

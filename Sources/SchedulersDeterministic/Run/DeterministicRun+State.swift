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
  /// settling, then closed. What made the run cancel the body, if it did, goes along.
  enum Phase {
    /// The body runs.
    case bodyRunning
    /// The body has finished; the tasks it left settle. `jobsAfterBody` counts the jobs run
    /// since, against `settlingBound`; `stoppedWith`, once the bound stopped the settling, how
    /// many jobs were still queued.
    case settling(jobsAfterBody: Int, stoppedWith: Int?)
    /// The run has ended and handed its jobs back: later jobs are refused.
    case closed
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
    /// came to a run that had none, or since the run last stopped a waiter at `idleWaitBound`.
    var jobsSinceIdle = 0
    /// The run's `idleWaitBound`.
    var idleWaitBound = DeterministicRun.idleWaitBound
    /// How much work begun with `withOutsideWork` is still pending.
    var outsideWork = 0
    /// Whether the driver sleeps on `wakeDriver`, so that whatever changes the state wakes it.
    var driverIsWaiting = false
    /// When the grace for a run that looks deadlocked runs out (see `foreignExecutorGrace`);
    /// `nil` while the run is not suspected. Any job of the run resets it.
    var graceDeadline: DispatchTime?
    /// Plain `Task.sleep`s of the run's tasks waiting on the virtual clock.
    var plainSleeps = PlainSleeps()
    /// What auto-advance has done, in an auto-advancing run.
    var autoAdvance = AutoAdvanceState()
    /// Tasks started with `DeterministicExecution.background`, cancelled when the body returns.
    var backgroundTasks: [Task<Void, Never>] = []
    /// Where main-actor jobs stay on the main queue (`JobRouter.mainActorJobsStayOnMainQueue`):
    /// whether the main queue was last seen with nothing of the run's to run. Reset by
    /// whatever may have put a main-actor job there.
    var mainQueueSettled = false
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
    if case .bodyRunning = phase { return false }
    return true
  }

  /// Whether the run has ended and handed its jobs back.
  var isClosed: Bool {
    if case .closed = phase { return true }
    return false
  }

  /// Set when the settling bound stopped the run: how many jobs were still queued.
  var settlingStoppedWith: Int? {
    if case .settling(_, let stoppedWith) = phase { return stoppedWith }
    return nil
  }

  /// Jobs run since the body finished.
  var jobsAfterBody: Int {
    if case .settling(let jobsAfterBody, _) = phase { return jobsAfterBody }
    return 0
  }

  /// The body has finished: its tasks settle from now on.
  mutating func noteBodyFinished() {
    if case .bodyRunning = phase { phase = .settling(jobsAfterBody: 0, stoppedWith: nil) }
  }

  /// The settling bound stopped the run, with jobs still queued.
  mutating func stopSettling() {
    if case .settling(let jobsAfterBody, nil) = phase {
      phase = .settling(jobsAfterBody: jobsAfterBody, stoppedWith: jobs.count - head)
    }
  }

  /// The run cancels its body for `report`; the first report is kept unless `replacing`.
  mutating func noteBodyCancelled(for report: String, replacing: Bool) {
    if replacing || findings.cancelledBodyFor == nil { findings.cancelledBodyFor = report }
  }

  /// Whether an exploring run has reached a bound of its chooser's `maxJobs`: the first (stop
  /// it as a livelock), or as many jobs again after that (it is stuck). The driver acts on it;
  /// the main queue's turns hand back to the driver when it is due.
  var exploringBoundIsDue: Bool {
    guard let exploring else { return false }
    return exploring.jobs >= (exploring.livelockStoppedAt ?? 0) + exploring.chooser.maxJobs
  }

  /// Whether a waiter for the run's idleness has waited through `idleWaitBound` jobs. An
  /// exploring run is left to its own bound, which counts only its own jobs, so that its
  /// schedules do not depend on another test's.
  var idleWaitBoundIsDue: Bool {
    exploring == nil && !idleWaiters.isEmpty && jobsSinceIdle >= idleWaitBound
  }

  /// The run made progress: it no longer looks deadlocked.
  mutating func clearSuspicion() {
    graceDeadline = nil
  }

}

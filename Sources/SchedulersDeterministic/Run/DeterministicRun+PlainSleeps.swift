// Plain `Task.sleep` inside a run: the runtime hands a sleeping task's wake-up to the routing
// backend, which gives it to the run; the run puts it on its test scheduler's virtual clock,
// keyed by the sleeping task's address, so that a cancellation (which resumes the task before
// the wake-up fires) can take it off again.

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

extension DeterministicRun {
  /// A plain `Task.sleep` of one of the run's tasks, waiting on the virtual clock.
  struct PlainSleep {
    /// The runtime's wake-up job: it resumes the sleeper, or does nothing if the sleep was
    /// cancelled. It must run either way (it frees the sleep's state).
    var wakeUp: QueuedJob
    /// The sleeping task, retained, to see whether it was cancelled.
    ///
    /// `UnsafeCurrentTask` is documented not to leave the closure that gave it. Kept here
    /// anyway, for two uses only, each safe whatever thread asks: its address (a strong
    /// reference, `Builtin.NativeObject`, so the task and its address live as long as this
    /// record), and `isCancelled`, which reads the task's atomic status word, as
    /// `Task.isCancelled` on a handle does from any thread. Nothing that assumes the task is
    /// the current one (task-locals, priority, `cancel()` from the task itself) is called on
    /// it. A `Task` handle would be the documented way; the runtime gives none for the task
    /// that is sleeping.
    var task: UncheckedSendable<UnsafeCurrentTask>?
    /// "a Task.sleep", with the task's name when it has one.
    var label: String
    /// The delay it asked for.
    var delay: Duration
    /// Its entry on the test scheduler; `nil` while it is being registered, and for a sleep
    /// longer than the virtual clock can hold (it waits until cancelled or the run ends).
    var entry: VirtualSleepEntry?

    /// The sleeping task's address: the job a cancellation enqueues when it resumes the task.
    var taskAddress: UInt? { task.map { unsafeBitCast($0.value, to: UInt.self) } }

    /// Whether it waits until cancelled. (Registration and scheduling happen in one job of
    /// the run, so the driver never sees a sleep between the two.)
    var isBeyondTheClock: Bool { entry == nil }
  }

  /// Enqueues a timed job (a plain `Task.sleep` of one of the run's tasks, called on that
  /// task) on the run's virtual clock, or in real time as outside work when the run has no
  /// test scheduler. Returns `false` to leave the job to the platform when the delay is not a
  /// `Duration`.
  ///
  /// The runtime hands over a deadline on a real clock, read a moment before (`now + delay`),
  /// and the real time between that reading and this call must not leak into virtual time.
  /// The gap from now to the deadline is short of the delay asked for by the time that
  /// hand-over took, and the runtime read its clock after the job began: so the delay lies
  /// between the gap and the gap plus the real time since the job began. The run takes the
  /// roundest duration in that window (`roundestDuration(from:through:)`), its width held
  /// between 50 and 250 µs above the time the job's thread was preempted
  /// (`JobStart.slack()`): never narrower, so that a sleep comes out the same however soon its
  /// job reached it, and never wider, so that a job that computed for a while before it sleeps
  /// does not take its delay for a far rounder one. So a delay comes out exact unless a rounder
  /// one lies within the window above it: any multiple of 500 µs unless the thread was
  /// preempted in the hand-over (then 250 ms still comes from a gap of 246 ms after a 4 ms
  /// preemption), and any multiple of 100 µs too when its job had run for less than 100 µs
  /// (nearly always: a sleeper's job is mostly its wake-up from its last sleep); 333 µs comes
  /// out as 350 µs (as 400 or 500 µs after a job that ran longer than 67 µs). Where the
  /// window's limit may have cut a slow hand-over short, a duration a thousand times rounder
  /// within a thousandth of the delay above the window is taken instead (`JobStart.delay`): a
  /// whole second after a hand-over of 600 µs, not 999.5 ms. A delay that is zero or less
  /// after that returns at once, as it would outside a run.
  func enqueue(
    _ job: UnownedJob, onMainActor: Bool, after delay: Duration?, fromDeadline: Bool
  ) -> Bool {
    guard var delay, !state.withLock({ $0.isClosed }) else { return false }
    if fromDeadline, tracksPlainSleeps { delay = jobStart.delay(fromGap: delay) }
    if delay <= .zero {
      enqueue(job, onMainActor: onMainActor)
      return true
    }
    if scheduleVirtualSleep == nil, let nanoseconds = Nanoseconds.checked(delay) {
      beginOutsideWork()
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
        self.enqueueOrHandBack(job, onMainActor: onMainActor)
        self.endOutsideWork()
      }
      return true
    }
    // Retained while it sleeps, so its address stays its own.
    let task = withUnsafeCurrentTask { $0 }
    var label = "a Task.sleep"
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *),
      let name = Task.name
    {
      label = "a Task.sleep in task \"\(name)\""
    }
    // Registered before it is scheduled, so that firing always finds it.
    let id = state.withLock { state -> UInt64 in
      state.plainSleeps.lastID += 1
      let id = state.plainSleeps.lastID
      state.plainSleeps.byID[id] = PlainSleep(
        wakeUp: QueuedJob(job: job, onMainActor: onMainActor),
        task: task.map(UncheckedSendable.init), label: label, delay: delay)
      if let address = state.plainSleeps.byID[id]?.taskAddress {
        state.plainSleeps.idsByTask[address] = id
      }
      return id
    }
    // Without a scheduler, or past what its clock holds, the sleep waits here until its task
    // is cancelled (past Int nanoseconds, 292 years, real time would not come either): not
    // outside work the run waits for.
    let entry = scheduleVirtualSleep?(delay, label) {
      if let sleep = self.state.withLock({ $0.removePlainSleep(id) }) {
        self.enqueueOrHandBack(
          sleep.wakeUp.job, onMainActor: sleep.wakeUp.onMainActor, isWakeUp: true)
      }
    }
    let cancelledMeanwhile = state.withLock { state -> Bool in
      guard state.plainSleeps.byID[id] != nil else { return true }
      state.plainSleeps.byID[id]?.entry = entry
      return false
    }
    // Cancelled between registering and scheduling: the entry must not stay behind.
    if cancelledMeanwhile { entry?.cancel() }
    return true
  }

  /// A job of the run is being enqueued: if it is a task sleeping on the virtual clock, it was
  /// resumed before its wake-up fired, which only cancellation does. Its wake-up then leaves
  /// the test scheduler at once (as a sleep on the scheduler does when cancelled) and runs now,
  /// finding the sleep cancelled. (A sleeper isolated to an actor is resumed through the
  /// actor's own job instead; the driver finds those when the run is next idle.)
  func dropWakeUpIfCancelled(
    _ job: UnownedJob, _ state: inout State
  ) -> PlainSleep? {
    guard !state.plainSleeps.idsByTask.isEmpty,
      let id = state.plainSleeps.idsByTask[unsafeBitCast(job, to: UInt.self)]
    else { return nil }
    return state.removePlainSleep(id)
  }
}

extension DeterministicRun.State {
  /// Forgets a plain sleep (fired, cancelled or handed back), releasing its task.
  mutating func removePlainSleep(_ id: UInt64) -> DeterministicRun.PlainSleep? {
    guard let sleep = plainSleeps.byID.removeValue(forKey: id) else { return nil }
    if let address = sleep.taskAddress { plainSleeps.idsByTask[address] = nil }
    return sleep
  }

  /// Removes the plain sleeps whose task was cancelled and queues their wake-ups (which find
  /// the sleep cancelled and free it), returning their test-scheduler entries to cancel
  /// outside the lock; `nil` when there are none.
  /// Whether a plain sleep's task was cancelled while its wake-up is still on the scheduler.
  var hasCancelledPlainSleeps: Bool {
    plainSleeps.byID.contains { $0.value.task?.value.isCancelled == true }
  }

  mutating func takeCancelledPlainSleeps() -> [VirtualSleepEntry]? {
    guard !plainSleeps.byID.isEmpty else { return nil }
    let cancelled = plainSleeps.byID.filter { $0.value.task?.value.isCancelled == true }.keys
      .sorted()
    guard !cancelled.isEmpty else { return nil }
    var entries: [VirtualSleepEntry] = []
    for id in cancelled {
      guard let sleep = removePlainSleep(id) else { continue }
      jobs.append(sleep.wakeUp)
      if let entry = sleep.entry { entries.append(entry) }
    }
    return entries
  }
}

/// Puts a plain sleep's wake-up on a test scheduler's virtual clock: given the delay, a label
/// for failure messages and the action that wakes the sleeper, it returns the scheduled entry,
/// or `nil` when the delay is longer than the virtual clock can hold.
typealias ScheduleVirtualSleep =
  @Sendable (Duration, String, @escaping @Sendable () -> Void) -> VirtualSleepEntry?

/// A plain sleep's wake-up on a test scheduler.
struct VirtualSleepEntry: Sendable {
  /// Removes the wake-up from the scheduler.
  let cancel: @Sendable () -> Void
  /// The virtual time left until the wake-up, `nil` once the scheduler is gone.
  let remaining: @Sendable () -> Duration?
}

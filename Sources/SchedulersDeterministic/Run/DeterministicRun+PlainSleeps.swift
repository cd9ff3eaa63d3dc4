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
  /// out as 350 µs (as 400 or 500 µs after a job that ran longer than 67 µs). A delay that is
  /// zero or less after that returns at once, as it would outside a run.
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

/// The roundest whole number of nanoseconds from `low` through `high`: the one with the most
/// trailing decimal zeros (250 ms before 247 ms, 1 s before 999.9 ms), then a multiple of
/// five of that power of ten, then the smallest (`low` is the tighter bound). Delays people
/// write are round, and a window that holds one is almost never wide enough to hold a rounder
/// one.
package func roundestDuration(from low: Duration, through high: Duration) -> Duration {
  // Past Int64 nanoseconds (292 years, a sleep "until cancelled") the delay stays as it is,
  // too long for any virtual clock.
  guard high < .seconds(9_223_372_036) else { return low }
  let (lowSeconds, lowAttoseconds) = low.components
  let (highSeconds, highAttoseconds) = high.components
  // In nanoseconds, clamped to what Int64 holds (292 years: beyond it rounding is moot).
  func nanoseconds(_ seconds: Int64, _ attoseconds: Int64, roundingUp: Bool) -> Int64 {
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let fraction = attoseconds / 1_000_000_000
    let remainder = attoseconds % 1_000_000_000
    let adjust: Int64 = roundingUp ? (remainder > 0 ? 1 : 0) : (remainder < 0 ? -1 : 0)
    let (sum, sumOverflow) = product.addingReportingOverflow(fraction + adjust)
    return sumOverflow ? (seconds < 0 ? .min : .max) : sum
  }
  let lower = max(0, nanoseconds(lowSeconds, lowAttoseconds, roundingUp: true))
  let upper = nanoseconds(highSeconds, highAttoseconds, roundingUp: false)
  guard upper < .max else { return low }
  guard lower > 0, upper > lower else { return .nanoseconds(max(lower, 0)) }
  var power: Int64 = 1_000_000_000_000_000_000
  while power > 1 {
    let first = (lower / power + (lower % power == 0 ? 0 : 1))
    let last = upper / power
    if first <= last {
      let fives = stride(from: first, through: last, by: 1).first { $0 % 5 == 0 }
      return .nanoseconds((fives ?? first) * power)
    }
    power /= 10
  }
  return .nanoseconds(lower)
}

/// How wide a plain sleep's window is at least, above the time its thread was preempted: the
/// hand-over's usual time (1 to 2 µs mostly, 20 to 30 µs for about one sleep in a thousand,
/// 27 µs for the first sleep of a process), with room to spare, so that a job that sleeps at
/// once gets the same window every time.
let plainSleepReadingAllowance: Duration = .microseconds(50)

/// How wide a plain sleep's window is at most, above the time its thread was preempted, however
/// long its job ran before it: the slowest hand-overs sleep-bench saw (2026-11-25, both cores
/// busy) took 50 to 92 µs of the thread's CPU time, about one sleep in 70,000, which the
/// allowance alone missed. Below 500 µs, so that every multiple of 500 µs stays exact after a
/// long job too.
let plainSleepReadingLimit: Duration = .microseconds(250)

/// The start of the job a run is running, on the thread that runs it: what bounds a plain
/// sleep's window.
final class JobStart: Sendable {
  private let clocks: JobClocks
  private let real = Atomic<UInt64>(0)
  private let cpu = Atomic<UInt64>(0)
  private let thread = Atomic<UInt>(0)
  /// The width of the last plain sleep's window, in nanoseconds (`lastWindow`).
  private let lastWindowNanoseconds = Atomic<Int64>(0)

  init(clocks: JobClocks = .system) { self.clocks = clocks }

  /// How wide the last plain sleep's window was: above 500 µs only when its thread was
  /// preempted during its job, the one case where its delay may come out rounder than asked.
  var lastWindow: Duration { .nanoseconds(lastWindowNanoseconds.load(ordering: .relaxed)) }

  /// Called on the job's thread just before it runs.
  func markStart() {
    thread.store(clocks.thread(), ordering: .relaxed)
    real.store(clocks.real(), ordering: .relaxed)
    cpu.store(clocks.threadCPU(), ordering: .relaxed)
  }

  /// The delay a plain sleep asked for, recovered from the gap between now and the deadline
  /// the runtime read a moment before: called from the sleeping job.
  func delay(fromGap gap: Duration) -> Duration {
    let slack = slack()
    lastWindowNanoseconds.store(Int64(Nanoseconds.saturating(slack)), ordering: .relaxed)
    return roundestDuration(from: gap, through: gap + slack)
  }

  /// How far above the gap the delay can lie: the real time since the job began, which holds
  /// the whole hand-over, kept between 50 µs (`plainSleepReadingAllowance`) and 250 µs
  /// (`plainSleepReadingLimit`) above the time the thread spent preempted (real time less the
  /// thread's CPU time). The preemption alone does not bound the hand-over: its instructions
  /// can take 50 µs and more that the thread's CPU clock counts as running (probably the host
  /// taking a virtual machine's processor, or an interrupt). So the window holds the delay
  /// whenever the job had run for less than 250 µs of CPU time, as a task that wakes and
  /// sleeps again has; after a longer job, whenever the hand-over took less than 250 µs of
  /// it. Called on a thread other than the job's (a task of the run on an actor with an
  /// executor of its own), where it knows neither time, it allows 250 µs.
  func slack() -> Duration {
    guard clocks.thread() == thread.load(ordering: .relaxed) else { return plainSleepReadingLimit }
    let elapsed = clocks.real() &- real.load(ordering: .relaxed)
    // The CPU clock can read a little ahead of the real one: it is read second.
    let ran = min(clocks.threadCPU() &- cpu.load(ordering: .relaxed), elapsed)
    let preempted = Duration.nanoseconds(Int64(clamping: elapsed - ran))
    let running = Duration.nanoseconds(Int64(clamping: ran))
    return preempted + min(max(running, plainSleepReadingAllowance), plainSleepReadingLimit)
  }
}

/// The clocks `JobStart` reads: real time and the calling thread's CPU time, in nanoseconds,
/// and the calling thread. Tests pass clocks of their own, to stand for a preempted thread or a
/// slow hand-over.
struct JobClocks: Sendable {
  var real: @Sendable () -> UInt64
  var threadCPU: @Sendable () -> UInt64
  var thread: @Sendable () -> UInt

  static let system = JobClocks(
    real: { DispatchTime.now().uptimeNanoseconds }, threadCPU: threadCPUNanoseconds,
    thread: currentThread)
}

/// The calling thread, as a number.
private func currentThread() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #elseif canImport(Glibc)
    UInt(pthread_self())
  #else
    UInt(bitPattern: Int(bitPattern: pthread_self()))
  #endif
}

/// The calling thread's CPU time.
private func threadCPUNanoseconds() -> UInt64 {
  var time = timespec()
  guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
  return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
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

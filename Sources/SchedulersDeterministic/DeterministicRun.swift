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

/// One deterministic run: a FIFO of every job of the process, drained by one driver thread
/// (main-actor jobs run on the main queue while the driver waits).
///
/// Because every job goes through this queue, "the queue is empty" is an exact idle signal:
/// nothing in the run can make progress until someone resumes a continuation. The test
/// scheduler's async `advance` uses it to wait until everything a step made runnable has run.
final class DeterministicRun: DeterministicRunIdleness {
  /// Why the driver stopped waiting for jobs.
  enum Ending: Sendable {
    case finished
    case deadlocked(String)
  }

  private struct QueuedJob {
    var job: UnownedJob
    var onMainActor: Bool
  }

  private struct State {
    var jobs: [QueuedJob] = []
    var head = 0
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    var outsideWork = 0
    var bodyFinished = false
    var driverIsWaiting = false
    var cancelledBodyForDeadlock = false
    /// What the run saw when it first found itself deadlocked (and cancelled the body): the
    /// caller reports it, on its own task, where the test framework knows the running test.
    var deadlockReport: String?
    /// Set when the run has ended and handed its jobs back: later jobs are refused.
    var isClosed = false
    /// Plain `Task.sleep` wake-ups waiting on the virtual clock, by id.
    var virtualSleeps: [UInt64: (entry: SendableCancellable?, job: QueuedJob)] = [:]
    var nextVirtualSleep: UInt64 = 0
  }

  private let state = Mutex(State())
  private let wakeDriver = DispatchSemaphore(value: 0)
  /// Schedules a job after a virtual duration on the run's test scheduler, if it has one.
  private let scheduleVirtualSleep:
    (@Sendable (Duration, @escaping @Sendable () -> Void) -> any Cancellable)?
  /// Describes the run's pending sleepers, for failure messages.
  let describePending: @Sendable () -> String?
  /// How long the driver waits in real time for outside work before it gives up.
  let outsideWorkTimeout: Duration

  init(
    scheduleVirtualSleep: (
      @Sendable (Duration, @escaping @Sendable () -> Void) -> any Cancellable
    )?,
    describePending: @escaping @Sendable () -> String?,
    outsideWorkTimeout: Duration
  ) {
    self.scheduleVirtualSleep = scheduleVirtualSleep
    self.describePending = describePending
    self.outsideWorkTimeout = outsideWorkTimeout
  }

  // MARK: The active run

  // Routing is process-wide by nature: the runtime has one global and one main executor. The
  // active run is therefore global state, set and cleared only by `withDeterministicExecution`,
  // which never lets two runs overlap.
  private static let activeRun = Mutex<DeterministicRun?>(nil)

  static var active: DeterministicRun? { activeRun.withLock { $0 } }

  static func activate(_ run: DeterministicRun?) { activeRun.withLock { $0 = run } }

  // MARK: Enqueueing

  /// Queues a job, unless the run has closed: a thread may have read `active` just before the
  /// run ended, and its job must then go to whoever is in charge now rather than be lost.
  func enqueue(_ job: UnownedJob, onMainActor: Bool) {
    let outcome = state.withLock { state -> (accepted: Bool, wake: Bool) in
      guard !state.isClosed else { return (false, false) }
      state.jobs.append(QueuedJob(job: job, onMainActor: onMainActor))
      defer { state.driverIsWaiting = false }
      return (true, state.driverIsWaiting)
    }
    if !outcome.accepted {
      reenqueue(job, onMainActor: onMainActor)
    } else if outcome.wake {
      wakeDriver.signal()
    }
  }

  /// Enqueues a timed job (a plain `Task.sleep`) on the run's virtual clock, or in real time as
  /// outside work when the run has no test scheduler. Returns `false` if the delay is not a
  /// `Duration`, which leaves the job to the platform.
  ///
  /// The runtime hands over a deadline on a real clock, read a moment before: the few
  /// microseconds between that reading and this call are real time that must not leak into
  /// virtual time, so a delay derived from a deadline is rounded to the nearest millisecond.
  func enqueue(
    _ job: UnownedJob, onMainActor: Bool, after delay: Duration?, fromDeadline: Bool
  ) -> Bool {
    guard var delay, !state.withLock({ $0.isClosed }) else { return false }
    if fromDeadline {
      let milliseconds =
        (Double(delay.components.seconds) * 1_000
        + Double(delay.components.attoseconds) / 1e15).rounded()
      // Past Int64 milliseconds (a sleep "until cancelled") the rounding no longer matters.
      if milliseconds.magnitude < 9.2e18 { delay = .milliseconds(Int64(milliseconds)) }
    }
    if let scheduleVirtualSleep {
      // Registered before it is scheduled, so that firing always finds it.
      let id = state.withLock { state -> UInt64 in
        state.nextVirtualSleep += 1
        state.virtualSleeps[state.nextVirtualSleep] = (
          nil, QueuedJob(job: job, onMainActor: onMainActor)
        )
        return state.nextVirtualSleep
      }
      let entry = SendableCancellable(
        scheduleVirtualSleep(delay) {
          if let sleep = self.state.withLock({ $0.virtualSleeps.removeValue(forKey: id) }) {
            self.enqueueOrForward(sleep.job.job, onMainActor: sleep.job.onMainActor)
          }
        })
      state.withLock { state in
        if state.virtualSleeps[id] != nil { state.virtualSleeps[id]?.entry = entry }
      }
    } else {
      beginOutsideWork()
      let nanoseconds = max(0, Nanoseconds.saturating(delay))
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
        self.enqueueOrForward(job, onMainActor: onMainActor)
        self.endOutsideWork()
      }
    }
    return true
  }

  /// Enqueues on this run while it is active; once it has ended, on whatever is active now
  /// (the platform executors, or a later run), so no job is ever lost.
  private func enqueueOrForward(_ job: UnownedJob, onMainActor: Bool) {
    if DeterministicRun.active === self {
      enqueue(job, onMainActor: onMainActor)
    } else {
      reenqueue(job, onMainActor: onMainActor)
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

  func beginOutsideWork() { state.withLock { $0.outsideWork += 1 } }

  func endOutsideWork() {
    let wake = state.withLock { state -> Bool in
      state.outsideWork -= 1
      defer { state.driverIsWaiting = false }
      return state.driverIsWaiting
    }
    if wake { wakeDriver.signal() }
  }

  func bodyDidFinish() {
    let wake = state.withLock { state -> Bool in
      state.bodyFinished = true
      defer { state.driverIsWaiting = false }
      return state.driverIsWaiting
    }
    if wake { wakeDriver.signal() }
  }

  // MARK: The driver

  /// What the driver does next.
  private enum Step {
    case run(QueuedJob)
    case resumeIdleWaiter(CheckedContinuation<Void, Never>)
    case waitForOutsideWork
    case finish
    case deadlock(cancelledBefore: Bool)
  }

  /// Drains the run's jobs on the calling thread until the body has finished and nothing is
  /// runnable, or until the run deadlocks. `cancelBody` is called once, at the first deadlock,
  /// to give the body a chance to unwind.
  func drive(cancelBody: @Sendable () -> Void) -> Ending {
    while true {
      let step = state.withLock { state -> Step in
        if state.head < state.jobs.count {
          let job = state.jobs[state.head]
          state.head += 1
          if state.head == state.jobs.count {
            state.jobs.removeAll(keepingCapacity: true)
            state.head = 0
          }
          return .run(job)
        }
        if !state.idleWaiters.isEmpty {
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
        return .deadlock(cancelledBefore: state.cancelledBodyForDeadlock)
      }
      switch step {
      case .run(let queued):
        if queued.onMainActor {
          // On the main queue itself, while the driver waits: main-actor code stays mutually
          // exclusive with Dispatch work on the main queue (which no routing can capture), and
          // the run still runs one job at a time, in order.
          let job = queued.job
          DispatchQueue.main.sync { runRoutedJob(job, onMainActor: true) }
        } else {
          runRoutedJob(queued.job, onMainActor: false)
        }
      case .resumeIdleWaiter(let continuation):
        continuation.resume()
      case .waitForOutsideWork:
        let nanoseconds = Nanoseconds.saturating(outsideWorkTimeout)
        if wakeDriver.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
          return .deadlocked(
            "outside work did not finish within \(outsideWorkTimeout) of real time"
              + pendingSuffix())
        }
      case .finish:
        return .finished
      case .deadlock(let cancelledBefore):
        if cancelledBefore {
          return .deadlocked(
            "the body is suspended, nothing in the run can resume it, and it did not finish when cancelled"
              + pendingSuffix())
        }
        // Described now, before the cancellation removes the sleepers it would name.
        let report =
          "Deterministic run deadlocked: the body is suspended and nothing in the run can resume it (no job is runnable, no outside work is pending)."
          + pendingSuffix() + " The body was cancelled."
        state.withLock {
          $0.cancelledBodyForDeadlock = true
          $0.deadlockReport = report
        }
        cancelBody()
      }
    }
  }

  /// The deadlock the run found and answered by cancelling the body, if any.
  var deadlockReport: String? { state.withLock { $0.deadlockReport } }

  private func pendingSuffix() -> String {
    describePending().map { " Pending: \($0)." } ?? ""
  }

  /// Hands every job still queued back to the runtime, so none is lost when the run ends.
  ///
  /// Plain `Task.sleep` wake-ups still waiting on the virtual clock are removed from it and
  /// released at once: the runtime's wake-up job checks the sleeper's state, so a wake-up whose
  /// task was cancelled does nothing, and a live sleeper wakes early, outside the run, rather
  /// than never.
  func forwardRemainingJobs() {
    let (remaining, sleeps) = state.withLock { state in
      defer {
        state.isClosed = true
        state.jobs.removeAll()
        state.head = 0
        state.virtualSleeps.removeAll()
      }
      return (Array(state.jobs[state.head...]), Array(state.virtualSleeps.values))
    }
    for queued in remaining { reenqueue(queued.job, onMainActor: queued.onMainActor) }
    for sleep in sleeps {
      sleep.entry?.cancel()
      reenqueue(sleep.job.job, onMainActor: sleep.job.onMainActor)
    }
  }
}

/// Starts a thread with a stack large enough for deep synchronous code in jobs.
func startDriverThread(_ body: @escaping @Sendable () -> Void) {
  final class Box {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  pthread_attr_setstacksize(&attributes, 8 << 20)
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let status = pthread_create(
    &thread, &attributes,
    { pointer in
      #if canImport(Darwin)
        Unmanaged<Box>.fromOpaque(pointer).takeRetainedValue().body()
      #else
        Unmanaged<Box>.fromOpaque(pointer!).takeRetainedValue().body()
      #endif
      return nil
    }, Unmanaged.passRetained(Box(body)).toOpaque())
  pthread_attr_destroy(&attributes)
  precondition(
    status == 0, "Deterministic execution: could not start its driver thread (\(status))")
  #if canImport(Darwin)
    pthread_detach(thread!)
  #else
    pthread_detach(thread)
  #endif
}

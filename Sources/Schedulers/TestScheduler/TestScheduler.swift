import Dispatch
import Synchronization

/// A scheduler whose clock moves only when the test moves it.
///
/// Work scheduled on a test scheduler waits in a queue until the test calls
/// ``advance(by:fileID:filePath:line:column:)``, ``advance(to:fileID:filePath:line:column:)`` or ``run(maxActions:fileID:filePath:line:column:)``,
/// which run everything that has become due, in order, on the calling thread. A test of code
/// that waits ten seconds takes no time at all:
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// var fired = false  // in a real test, state the model owns
/// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { fired = true }
/// scheduler.advance(by: .seconds(9))   // not yet
/// scheduler.advance(by: .seconds(1))   // now `fired` is true
/// ```
///
/// ## Semantics
/// - Actions due at the same instant run in the order they were scheduled (FIFO), also when
///   scheduled from inside other actions, unless the scheduler was created with
///   ``SameInstantOrder/shuffled(seed:)``. Each tick of repeating work keeps the place of its
///   first scheduling, as in combine-schedulers: a timer every 2 s and one every 3 s, both
///   started at once and advanced 6 s, run 1, 2, 1, 1, 2 (at 2, 3, 4, 6, 6).
/// - While an action runs, ``now`` equals its deadline. After `advance(to: t)`, `now == t`.
/// - Time never moves backwards. An action scheduled for a past instant runs at the next
///   advance (even `advance(by: .zero)`) at the current `now`; `advance(to:)` a past instant
///   runs what is due and leaves `now` where it is.
/// - Work scheduled during an advance for an instant inside the advanced range runs in the
///   same advance, in deadline order.
/// - Repeating work runs at `date`, `date + interval`, ... until cancelled, also when it
///   cancels itself from inside its own action. A cancelled action never runs, even when it is
///   due at the same instant as the action that cancelled it.
///
/// ## Thread safety
/// Any thread may schedule, cancel and read ``now`` at any time, including while another
/// thread advances. Actions run on the thread that advances, outside the scheduler's lock, so
/// they may schedule and cancel freely. Advancing is exclusive: an advance that starts while
/// another is running (from another thread, or from inside an action) stops the process with a
/// precondition failure that says which of the two happened, rather than interleave them.
///
/// ## Complexity
/// The queue is a four-ary min-heap keyed by `(deadline, scheduling order)`: scheduling and
/// running an action are O(log n) in the number of pending actions, cancelling one amortised
/// O(1), with no sort per step and no linear search. An advance over most of a large queue
/// (32,768 actions or more) sorts the due ones once instead, in the same order.
public final class TestScheduler<SchedulerTimeType: Strideable & Sendable, SchedulerOptions>:
  Scheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable {
  /// The test scheduler's stride (`SchedulerTimeType.Stride`): what `advance(by:)` takes.
  public typealias Stride = SchedulerTimeType.Stride

  @usableFromInline
  struct State {
    @usableFromInline var now: SchedulerTimeType
    @usableFromInline var queue = ScheduleQueue<SchedulerTimeType>()
    /// Draws the order of actions due at the same instant, when it is shuffled.
    @usableFromInline var shuffle: SplitMix64?
    /// Who is running an advance, if anyone: the thread, and the task (0 outside a task).
    @usableFromInline var advancing: (thread: UInt, task: UInt)?
    /// Tasks waiting for pending work (``waitForPendingWork(count:timeout:fileID:filePath:line:column:isolation:)``).
    @usableFromInline var waiters: [PendingWorkWaiter] = []

    @inlinable init(now: SchedulerTimeType, order: SameInstantOrder) {
      self.now = now
      if let seed = order.seed { shuffle = SplitMix64(seed: seed) }
    }

    /// The place among actions due at the same instant: `nil` for first-in, first-out (the
    /// queue numbers them) or, when shuffled, a random one. The draw's high half, so that
    /// the 32-bit orders compare as the full 64-bit draws do, and a seed printed in a failure
    /// reproduces the same permutation.
    @inlinable
    mutating func drawOrder() -> UInt32? {
      guard shuffle != nil else { return nil }
      return UInt32(truncatingIfNeeded: shuffle!.next() &>> 32)
    }

    /// Queues an action, and hands back the pending-work waiters it satisfied, to be resumed
    /// once the lock is released (`nil`, the common case, when nobody waits).
    @inlinable
    mutating func enqueue(
      _ action: @escaping @Sendable () -> Void, at deadline: SchedulerTimeType,
      handle: ScheduleQueueHandle<SchedulerTimeType>?
    ) -> [PendingWorkWaiter]? {
      if let place = handle?.callSite?.place {
        // A timer's tick: the place its first tick took (see `SameInstantPlace`).
        place.order = queue.insert(
          deadline: deadline, action: action, handle: handle, order: place.order ?? drawOrder())
      } else {
        queue.insert(deadline: deadline, action: action, handle: handle, order: drawOrder())
      }
      return waiters.isEmpty ? nil : takeSatisfiedWaiters()
    }
  }

  /// Queues an action under the lock, then resumes the waiters it satisfied outside it:
  /// resuming a continuation can wait on the runtime (a task's status lock), which may itself
  /// be held by a thread waiting for this scheduler's lock.
  @inlinable
  func enqueue(
    _ action: @escaping @Sendable () -> Void, at deadline: SchedulerTimeType?,
    handle: ScheduleQueueHandle<SchedulerTimeType>?
  ) {
    let satisfied = state.withLock { $0.enqueue(action, at: deadline ?? $0.now, handle: handle) }
    if let satisfied { PendingWorkWaiter.resume(satisfied) }
  }

  @usableFromInline let state: Mutex<State>

  /// How this scheduler orders actions due at the same instant.
  public let order: SameInstantOrder

  /// The test running where the scheduler was created, named in failures found on another
  /// thread (`run()` hitting its bound there, say).
  let createdInTest: String?

  /// Creates a test scheduler whose clock starts at `now`.
  ///
  /// ```swift
  /// let scheduler = TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>(
  ///   now: .init(uptimeNanoseconds: 1))
  /// ```
  public convenience init(now: SchedulerTimeType) {
    self.init(now: now, order: .firstInFirstOut)
  }

  /// Creates a test scheduler whose clock starts at `now`, with actions due at the same
  /// instant run in `order`.
  ///
  /// A shuffled order exposes tests that depend on an order nobody promised (two timers due at
  /// the same instant, say). The scheduler's failure messages (pending work, `run()`'s bound)
  /// name the seed, so a failing run can be reproduced with it:
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test(order: .shuffled(seed: 42))
  /// ```
  public convenience init(now: SchedulerTimeType, order: SameInstantOrder) {
    self.init(now: now, order: order, stalledSleepWatchdog: .shared)
  }

  /// Creates a test scheduler whose sleeps outside a deterministic run are watched by
  /// `stalledSleepWatchdog` (tests of the watchdog give each scheduler one of its own).
  package init(
    now: SchedulerTimeType, order: SameInstantOrder, stalledSleepWatchdog: StalledSleepWatchdog
  ) {
    self.order = order
    state = Mutex(State(now: now, order: order))
    createdInTest = TestFailure.currentTestName
    self.stalledSleepWatchdog = stalledSleepWatchdog
  }

  /// Fails a test that would wait forever on a sleep of this scheduler that nothing advances to
  /// (see ``StalledSleepWatchdog``).
  let stalledSleepWatchdog: StalledSleepWatchdog

  /// The scheduler's virtual time: it moves only when the test advances it.
  @inlinable public var now: SchedulerTimeType { state.withLock { $0.now } }

  /// Always zero: a test scheduler runs actions exactly at their deadlines.
  public var minimumTolerance: Stride { .zero }

  /// The number of actions waiting to run, repeating ones counted once.
  ///
  /// - Complexity: O(1)
  public var pendingActionCount: Int { state.withLock { $0.queue.count } }

  /// The deadline of the action that runs next, or `nil` when nothing is pending.
  ///
  /// A deadline before ``now`` means the action is overdue and runs at the next advance.
  ///
  /// - Complexity: O(1)
  public var nextDeadline: SchedulerTimeType? { state.withLock { $0.queue.firstDeadline } }

  /// Schedules an action to run at the next advance, at the current time.
  ///
  /// - Complexity: O(log n)
  @inlinable
  public func schedule(options _: SchedulerOptions?, _ action: @escaping SchedulerAction) {
    let action = sendableAction(action)
    let handle = CallSite.current.map {
      ScheduleQueueHandle<SchedulerTimeType>(interval: nil, callSite: $0)
    }
    enqueue(action, at: nil, handle: handle)
  }

  /// Schedules an action to run once the clock reaches `date`; the tolerance is ignored.
  ///
  /// - Complexity: O(log n)
  @inlinable
  public func schedule(
    after date: SchedulerTimeType, tolerance _: Stride, options _: SchedulerOptions?,
    _ action: @escaping SchedulerAction
  ) {
    let action = sendableAction(action)
    // A call site is known when the caller set one (the main-actor overloads, sleeps, timers);
    // only then does the entry get a handle to carry it.
    let handle = CallSite.current.map {
      ScheduleQueueHandle<SchedulerTimeType>(interval: nil, callSite: $0)
    }
    enqueue(action, at: date, handle: handle)
  }

  /// Schedules an action to run at `date` and then every `interval`, until cancelled.
  ///
  /// Each occurrence is due exactly `interval` after the previous deadline, so a repeating
  /// action never drifts. Cancelling, or releasing the returned value, removes the pending
  /// occurrence and releases the action, as with a dispatch queue: a timer whose cancellable is
  /// dropped stops in tests just as it would in production.
  ///
  /// - Precondition: `interval` is greater than zero.
  /// - Complexity: O(log n) to schedule, to run each occurrence and to cancel.
  @inlinable
  public func schedule(
    after date: SchedulerTimeType, interval: Stride, tolerance _: Stride,
    options _: SchedulerOptions?, _ action: @escaping SchedulerAction
  ) -> any Cancellable {
    let action = sendableAction(action)
    precondition(
      interval > .zero,
      "TestScheduler: a repeating action needs an interval greater than zero, got \(describeStride(interval))"
    )
    let handle = ScheduleQueueHandle<SchedulerTimeType>(
      interval: interval, callSite: CallSite.current)
    enqueue(action, at: date, handle: handle)
    // A closure of its own rather than `AnyCancellable(_: some Cancellable)`, which boxes the
    // pending action as `any Cancellable`: through the existential, cancelling would reach the
    // unspecialised generic code, which looks up type metadata at every step (more than twice
    // the instructions of the specialised closure under callgrind).
    let pending = PendingAction(scheduler: self, handle: handle)
    return AnyCancellable { pending.cancel() }
  }

  /// Schedules an action once at `date`; cancelling removes it from the queue and releases it.
  ///
  /// - Complexity: O(log n) to schedule and to cancel.
  // Inlinable, so a caller in another module (every test) specialises it for its time types
  // instead of running generic code that looks up type metadata at each step (more than half
  // of an async debounce's instructions under callgrind; docs/operators.md says how to
  // count them). No exported
  // `@_specialize` on an inlinable function (the non-inlinable entry points have one): a
  // whole-module build can reference such a prespecialisation without emitting it, and the
  // release link then fails or not depending on the order of the module's files.
  @inlinable
  public func scheduleCancellable(
    after date: SchedulerTimeType, tolerance _: Stride, options _: SchedulerOptions?,
    _ action: @escaping @Sendable () -> Void
  ) -> any Cancellable {
    let handle = ScheduleQueueHandle<SchedulerTimeType>(interval: nil, callSite: CallSite.current)
    enqueue(action, at: date, handle: handle)
    return PendingAction(scheduler: self, handle: handle)
  }

  /// Schedules a wake-up at `date` that pending work describes by `label` (a plain
  /// `Task.sleep` in a deterministic run, whose call site nobody knows).
  @_specialize(
    exported:true,where
      SchedulerTimeType == DispatchQueue.SchedulerTimeType,
      SchedulerOptions == DispatchQueue.SchedulerOptions
  )
  package func scheduleCancellable(
    after date: SchedulerTimeType, label: String, _ action: @escaping @Sendable () -> Void
  ) -> any Cancellable {
    let handle = ScheduleQueueHandle<SchedulerTimeType>(interval: nil, label: label)
    enqueue(action, at: date, handle: handle)
    return PendingAction(scheduler: self, handle: handle)
  }

  /// Removes a handle's entry, if it is still queued. Releases the action outside the lock.
  @inlinable
  func cancel(_ handle: ScheduleQueueHandle<SchedulerTimeType>) {
    let removed = state.withLock { $0.queue.cancel(handle) }
    // The action's captures are released here, after the lock, in case their deinit schedules.
    _ = removed
  }

  /// A pending action's cancellation. Holds the scheduler weakly: cancelling after the
  /// scheduler is gone does nothing, and a pending timer does not keep its scheduler alive.
  // Inlinable, with the scheduling methods above, so that callers get it specialised: generic
  // code in this module would look up the type metadata of each handle and pending action at
  // run time (a third of a cancel-heavy workload's time under `perf`).
  @usableFromInline
  struct PendingAction: Cancellable, Sendable {
    @usableFromInline weak let scheduler: TestScheduler?
    @usableFromInline let handle: ScheduleQueueHandle<SchedulerTimeType>

    @inlinable
    init(scheduler: TestScheduler, handle: ScheduleQueueHandle<SchedulerTimeType>) {
      self.scheduler = scheduler
      self.handle = handle
    }

    @inlinable func cancel() { scheduler?.cancel(handle) }
  }
}

/// A test scheduler with the same time and option types as `S`.
///
/// ```swift
/// let scheduler: TestSchedulerOf<DispatchQueue> = DispatchQueue.test
/// ```
public typealias TestSchedulerOf<S: Scheduler> = TestScheduler<
  S.SchedulerTimeType, S.SchedulerOptions
>

extension TestScheduler where SchedulerTimeType: VirtualEpochProviding {
  /// Creates a test scheduler whose clock starts at its time type's virtual epoch, with actions
  /// due at the same instant run in `order`: what `DispatchQueue.test`, `RunLoop.test` and
  /// `OperationQueue.test` give.
  ///
  /// ```swift
  /// let scheduler = TestSchedulerOf<DispatchQueue>(order: .shuffled(seed: 42))
  /// ```
  public convenience init(order: SameInstantOrder = .firstInFirstOut) {
    self.init(now: .virtualEpoch, order: order)
  }
}

extension TestScheduler: StalledSleepWatching {
  package func stalledSleepWatch() -> (StalledSleepWatchdog, StalledSleepContext)? {
    guard stalledSleepWatchdog.limit != nil, DeterministicRunContext.current == nil else {
      return nil
    }
    return (
      stalledSleepWatchdog,
      StalledSleepContext(testName: createdInTest) { [weak self] in self?.pendingWorkDescription }
    )
  }
}

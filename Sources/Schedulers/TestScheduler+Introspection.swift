import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a ``TestScheduler`` orders actions due at the same instant.
///
/// ```swift
/// let fifo = DispatchQueue.test
/// let shuffled = DispatchQueue.test(order: .shuffled(seed: 7))
/// ```
public enum SameInstantOrder: Sendable, Equatable {
  /// The order they were scheduled in: the default, and what tests may rely on.
  case firstInFirstOut
  /// A pseudo-random order drawn from `seed`: the same seed gives the same order.
  case shuffled(seed: UInt64)

  /// A shuffled order with a fresh seed, or the seed in the `SCHEDULERS_SHUFFLE_SEED`
  /// environment variable when it is set (to reproduce a failing run without editing code).
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test(order: .shuffled)
  /// ```
  public static var shuffled: SameInstantOrder {
    if let text = getenv("SCHEDULERS_SHUFFLE_SEED"), let seed = UInt64(String(cString: text)) {
      return .shuffled(seed: seed)
    }
    return .shuffled(seed: UInt64.random(in: 0...UInt64.max))
  }
}

/// One pending action of a ``TestScheduler``, as ``TestScheduler/pendingWork`` lists it.
///
/// ```swift
/// for work in scheduler.pendingWork { print(work) }
/// // repeating every 1 s, due in 1 s, scheduled at Countdown.swift:14
/// ```
public struct PendingWork<SchedulerTimeType: Strideable & Sendable>: Sendable, Equatable,
  CustomStringConvertible
where SchedulerTimeType.Stride: Sendable {
  /// When the action is due.
  public let deadline: SchedulerTimeType
  /// How far the deadline is from the scheduler's `now` when the snapshot was taken (negative
  /// for an overdue action).
  public let dueIn: SchedulerTimeType.Stride
  /// The interval of a repeating action, `nil` for a one-shot one.
  public let interval: SchedulerTimeType.Stride?
  /// The file that scheduled it, when the API could know it (sleeps, timers, main-actor
  /// overloads, and code that set it); `nil` otherwise.
  public let fileID: String?
  /// The line that scheduled it, with ``fileID``.
  public let line: UInt?

  /// Whether the action repeats.
  public var isRepeating: Bool { interval != nil }

  /// Creates a description of pending work (the scheduler makes these).
  public init(
    deadline: SchedulerTimeType, dueIn: SchedulerTimeType.Stride,
    interval: SchedulerTimeType.Stride?, fileID: String?, line: UInt?
  ) {
    self.deadline = deadline
    self.dueIn = dueIn
    self.interval = interval
    self.fileID = fileID
    self.line = line
  }

  /// "repeating every 1 s, due in 2 s, scheduled at Model.swift:12", or "an action due in 300
  /// ms" when the call site is unknown.
  public var description: String {
    let kind = interval.map { "repeating every \($0)" } ?? "an action"
    let site = fileID.map { ", scheduled at \($0):\(line ?? 0)" } ?? ""
    return "\(kind), due in \(dueIn)\(site)"
  }
}

extension TestScheduler {
  /// The actions waiting to run, in the order they would run.
  ///
  /// Cancelled work never appears: cancelling removes it from the queue at once.
  ///
  /// ```swift
  /// #expect(scheduler.pendingWork.map(\.dueIn) == [.milliseconds(300)])
  /// ```
  ///
  /// - Complexity: O(n log n) for n pending actions.
  public var pendingWork: [PendingWork<SchedulerTimeType>] {
    let (now, entries) = state.withLock { ($0.now, $0.queue.sortedEntries()) }
    return entries.map { Self.describe($0, now: now) }
  }

  static func describe(
    _ entry: ScheduleQueue<SchedulerTimeType>.Entry, now: SchedulerTimeType
  ) -> PendingWork<SchedulerTimeType> {
    let site = entry.handle?.callSite
    return PendingWork(
      deadline: entry.deadline, dueIn: now.distance(to: entry.deadline),
      interval: entry.handle?.interval, fileID: site.map { "\($0.fileID)" }, line: site?.line)
  }

  /// Runs exactly the next pending action, whatever its deadline, moving the clock to it
  /// (never back), and returns what it ran; `nil` when nothing is pending.
  ///
  /// ```swift
  /// model.start()
  /// let ran = scheduler.step()
  /// #expect(ran?.interval == .seconds(1))
  /// ```
  ///
  /// - Precondition: no other advance is running.
  @discardableResult
  public func step() -> PendingWork<SchedulerTimeType>? {
    beginAdvancing("step()")
    defer { endAdvancing() }
    // One lock pops the action and reads what it was, so work scheduled by another thread in
    // between cannot make the answer describe a different action.
    guard let (entry, now) = popNextEntry(dueBy: nil) else { return nil }
    entry.action()
    return Self.describe(entry, now: now)
  }
}

// MARK: Waiting for pending work

/// A task waiting for a test scheduler's pending work to reach a count.
@usableFromInline
struct PendingWorkWaiter: Sendable {
  let id: UInt64
  /// Resume when the queue holds at least this many actions.
  let count: Int
  let continuation: CheckedContinuation<Void, any Error>
}

/// The error thrown when pending work did not arrive in time (a last resort against hangs).
///
/// ```swift
/// do {
///   try await scheduler.waitForPendingWork(count: 2)
/// } catch let error as PendingWorkTimeout {
///   print(error)  // names the count awaited, the count reached, and the pending work
/// }
/// ```
public struct PendingWorkTimeout: Error, CustomStringConvertible {
  /// What was awaited, for how long, and what is pending.
  public let description: String
}

extension TestScheduler {
  /// Suspends until the scheduler holds at least `count` pending actions, resumed by the
  /// scheduler itself when work is scheduled: no polling, no yields.
  ///
  /// For code that does not run under deterministic execution: a task that will schedule
  /// work soon (a timer started by a callback, a sleep in a task the test cannot await). The
  /// `timeout`, in real time, is only a last resort against a test hanging (generous, because
  /// a loaded machine running other tests in parallel can starve the scheduling task for
  /// seconds); when it passes, the call throws ``PendingWorkTimeout`` naming what was awaited
  /// and what is pending.
  ///
  /// ```swift
  /// Task { await model.startPolling() }  // sleeps on the scheduler, some time later
  /// try await scheduler.waitForPendingWork(count: 1)
  /// scheduler.advance(by: .seconds(5))
  /// ```
  public func waitForPendingWork(
    count: Int = 1, timeout: Duration = .seconds(60),
    fileID: StaticString = #fileID, line: UInt = #line
  ) async throws {
    precondition(
      count >= 0, "waitForPendingWork(count:) needs a count of zero or more, got \(count)")
    try await waitForQueue(
      count: { _ in count }, timeout: timeout,
      what: "\(count) pending action\(count == 1 ? "" : "s")", fileID: fileID, line: line)
  }

  /// Suspends until the next action is scheduled (counted from the call), resumed by the
  /// scheduler itself.
  ///
  /// ```swift
  /// model.refreshTapped()  // schedules its work from a task it starts
  /// try await scheduler.waitForNextScheduledAction()
  /// ```
  public func waitForNextScheduledAction(
    timeout: Duration = .seconds(60), fileID: StaticString = #fileID, line: UInt = #line
  ) async throws {
    try await waitForQueue(
      count: { $0 + 1 }, timeout: timeout, what: "the next scheduled action", fileID: fileID,
      line: line)
  }

  private func waitForQueue(
    count: @Sendable (_ pendingNow: Int) -> Int, timeout: Duration, what: String,
    fileID: StaticString, line: UInt
  ) async throws {
    let id = UInt64.random(in: 0...UInt64.max)
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // Checked under the lock: a cancellation that came before the waiter was registered
        // found nothing to remove, and is seen here instead.
        let outcome = state.withLock { state -> Result<Void, any Error>? in
          let target = count(state.queue.count)
          if state.queue.count >= target { return .success(()) }
          if Task.isCancelled { return .failure(CancellationError()) }
          state.waiters.append(
            PendingWorkWaiter(id: id, count: target, continuation: continuation))
          return nil
        }
        if let outcome {
          continuation.resume(with: outcome)
          return
        }
        DispatchQueue.global().asyncAfter(
          deadline: .now() + .nanoseconds(Nanoseconds.fromDuration(timeout))
        ) { [weak self] in
          guard let self, let waiter = self.removeWaiter(id) else { return }
          let pending = self.pendingWork
          let list =
            pending.isEmpty
            ? "nothing"
            : pending.map { "  - \($0)" }.joined(separator: "\n")
          waiter.continuation.resume(
            throwing: PendingWorkTimeout(
              description: """
                Waited \(timeout) (real time) at \(fileID):\(line) for \(what) on the test \
                scheduler; it has \(pending.count) pending:
                \(list)
                """))
        }
      }
    } onCancel: {
      removeWaiter(id)?.continuation.resume(throwing: CancellationError())
    }
  }

  @discardableResult
  private func removeWaiter(_ id: UInt64) -> PendingWorkWaiter? {
    state.withLock { state in
      guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
      return state.waiters.remove(at: index)
    }
  }
}

extension TestScheduler.State {
  /// Removes and returns the waiters whose count the queue has reached. Called with the lock
  /// held; the caller resumes them after releasing it.
  @usableFromInline
  mutating func takeSatisfiedWaiters() -> [PendingWorkWaiter]? {
    let count = queue.count
    guard waiters.contains(where: { count >= $0.count }) else { return nil }
    var satisfied: [PendingWorkWaiter] = []
    waiters.removeAll { waiter in
      guard count >= waiter.count else { return false }
      satisfied.append(waiter)
      return true
    }
    return satisfied
  }
}

extension PendingWorkWaiter {
  /// Resumes waiters taken out of a scheduler's state (never with its lock held).
  @usableFromInline
  static func resume(_ waiters: [PendingWorkWaiter]) {
    for waiter in waiters { waiter.continuation.resume() }
  }
}

extension DispatchQueue {
  /// A test scheduler of dispatch queues with the given order for actions due at the same
  /// instant.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test(order: .shuffled(seed: 42))
  /// ```
  public static func test(order: SameInstantOrder) -> TestSchedulerOf<DispatchQueue> {
    TestScheduler(now: virtualEpoch, order: order)
  }
}

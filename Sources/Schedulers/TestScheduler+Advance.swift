import Synchronization

extension TestScheduler {
  /// Advances the clock by `stride`, running every action that becomes due, in order.
  ///
  /// `advance()` with no argument runs what is already due without moving the clock.
  ///
  /// ```swift
  /// scheduler.advance(by: .seconds(1))
  /// ```
  ///
  /// - Precondition: `stride` is not negative (time never moves backwards; to run what is
  ///   due, call `advance()`), and no other advance is running.
  /// - Complexity: O(k log n) for k actions run among n pending.
  @inlinable
  public func advance(by stride: Stride = .zero) {
    advance(to: target(advancingBy: stride))
  }

  /// The instant `stride` after ``now``, refusing a negative stride: time never moves back.
  @usableFromInline
  func target(advancingBy stride: Stride) -> SchedulerTimeType {
    precondition(
      stride >= .zero,
      "TestScheduler.advance(by:) needs a stride of zero or more, got \(describeStride(stride)): time never moves backwards"
    )
    return now.advanced(by: stride)
  }

  /// Moves the clock to `instant` at the end of an advance, unless it is in the past.
  @usableFromInline
  func moveClockForward(to instant: SchedulerTimeType) {
    state.withLock { state in
      if state.now < instant { state.now = instant }
    }
  }

  /// Advances the clock to `instant`, running every action due by then, in order.
  ///
  /// While each action runs, ``now`` equals its deadline (or the current time, for an action
  /// that was scheduled in the past). When the call returns, `now == instant`, unless `instant`
  /// is in the past: then the call runs what is due and leaves the clock where it is.
  ///
  /// ```swift
  /// scheduler.advance(to: scheduler.now.advanced(by: .seconds(5)))
  /// ```
  ///
  /// - Precondition: no other advance is running on this scheduler.
  /// - Complexity: O(k log n) for k actions run among n pending.
  @inlinable
  public func advance(to instant: SchedulerTimeType) {
    advanceSynchronously(to: instant)
  }

  @inlinable
  func advanceSynchronously(to instant: SchedulerTimeType) {
    beginAdvancing("advance(to:)")
    defer { endAdvancing() }
    while let action = popNextAction(dueBy: instant) {
      action()
    }
    moveClockForward(to: instant)
  }

  /// Runs actions until none is pending, moving the clock to each one's deadline.
  ///
  /// Repeating work never drains by itself, so `run()` stops after `maxActions` actions and
  /// records a failure: a test failure when `SchedulersTesting` is linked into the test, a
  /// message on standard error otherwise. It never hangs.
  ///
  /// ```swift
  /// scheduler.run()                    // everything, up to 100,000 actions
  /// scheduler.run(maxActions: 1_000)   // a tighter bound
  /// ```
  ///
  /// `maxActions` is the most actions this call runs before it stops and records a
  /// failure (when actions are still pending): the guard that turns an endless repeating
  /// timer into a test failure instead of a hang.
  ///
  /// - Returns: the number of actions that ran.
  /// - Precondition: `maxActions` is not negative, and no other advance is running.
  @discardableResult
  public func run(
    maxActions: Int = 100_000,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> Int {
    runSynchronously(
      maxActions: maxActions, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  func runSynchronously(
    maxActions: Int, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) -> Int {
    precondition(
      maxActions >= 0,
      "TestScheduler.run(maxActions:) needs a bound of zero or more, got \(maxActions)")
    beginAdvancing("run()")
    defer { endAdvancing() }
    var ran = 0
    while ran < maxActions, let action = popNextAction(dueBy: nil) {
      action()
      ran += 1
    }
    reportRunBound(maxActions, fileID: fileID, filePath: filePath, line: line, column: column)
    return ran
  }

  func reportRunBound(
    _ maxActions: Int, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    let pending = pendingActionCount
    if pending > 0 {
      TestFailure.record(
        """
        TestScheduler.run() stopped after \(maxActions) actions with \(pending) still pending. \
        Repeating work never drains: advance by a duration instead, cancel the work, or raise \
        maxActions.\(order.reproductionHint)
        """,
        fileID: fileID, filePath: filePath, line: line, column: column, testName: createdInTest)
    }
  }

  /// Removes the next action due by `limit` (any deadline when `nil`), moves the clock to its
  /// deadline, reschedules it if it repeats, and returns it to run outside the lock.
  @inlinable
  func popNextAction(dueBy limit: SchedulerTimeType?) -> (@Sendable () -> Void)? {
    popNextEntry(dueBy: limit)?.entry.action
  }

  /// Does ``popNextAction(dueBy:)``'s work under one lock, and returns the entry as it was
  /// queued with the clock as it stands for its run: `step()` describes what it ran from it.
  @inlinable
  func popNextEntry(
    dueBy limit: SchedulerTimeType?
  ) -> (entry: ScheduleQueue<SchedulerTimeType>.Entry, now: SchedulerTimeType)? {
    state.withLock {
      state -> (entry: ScheduleQueue<SchedulerTimeType>.Entry, now: SchedulerTimeType)? in
      guard let first = state.queue.first else { return nil }
      if let limit, first.deadline > limit, first.deadline > state.now { return nil }
      if state.now < first.deadline { state.now = first.deadline }
      guard let handle = first.handle, let interval = handle.interval else {
        return (state.queue.removeFirst(), state.now)
      }
      let next = first.deadline.advanced(by: interval)
      precondition(
        next > first.deadline,
        "TestScheduler: a repeating action's next deadline overflows the clock (at \(first.deadline), every \(describeStride(interval)))"
      )
      // A repeating action keeps the sequence it was first scheduled with, so that repeating
      // actions due at the same instant run in the order they were first scheduled, every
      // tick (as in combine-schedulers). A shuffled scheduler draws a new place each tick.
      let sequence = state.shuffle == nil ? first.sequence : state.takeSequence()
      state.queue.replaceFirst(
        with: .init(deadline: next, sequence: sequence, action: first.action, handle: handle))
      return (first, state.now)
    }
  }

  @usableFromInline
  func beginAdvancing(_ method: StaticString) {
    let thread = currentThreadID()
    let running = state.withLock { state -> UInt? in
      if let running = state.advancingThread { return running }
      state.advancingThread = thread
      return nil
    }
    guard let running else { return }
    if running == thread {
      preconditionFailure(
        "TestScheduler.\(method) was called from inside a scheduled action while the scheduler was already advancing; advances cannot nest"
      )
    } else {
      preconditionFailure(
        "TestScheduler.\(method) was called on two threads at once; advance a test scheduler from one thread at a time"
      )
    }
  }

  @usableFromInline
  func endAdvancing() {
    state.withLock { $0.advancingThread = nil }
  }
}

import Dispatch
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
  /// An advance never runs forever: work that keeps scheduling itself at the current instant
  /// would never let the clock move, so after 100,000 actions at one instant (or twice the
  /// number pending when the advance began, if that is more) the advance stops, leaves the
  /// rest pending, and records a failure at the call naming what was pending.
  ///
  /// - Precondition: `stride` is not negative (time never moves backwards; to run what is
  ///   due, call `advance()`), and no other advance is running.
  /// - Complexity: O(k log n) for k actions run among n pending.
  @inlinable  // specialised by each caller (see `scheduleCancellable`)
  public func advance(
    by stride: Stride = .zero,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    advanceSynchronously(
      to: target(advancingBy: stride),
      location: (fileID, filePath, line, column))
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
  /// Like ``advance(by:fileID:filePath:line:column:)``, it stops and records a failure when
  /// work keeps scheduling itself at one instant.
  ///
  /// - Precondition: no other advance is running on this scheduler.
  /// - Complexity: O(k log n) for k actions run among n pending.
  @inlinable  // specialised by each caller (see `scheduleCancellable`)
  public func advance(
    to instant: SchedulerTimeType,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    advanceSynchronously(to: instant, location: (fileID, filePath, line, column))
  }

  @inlinable
  func advanceSynchronously(to instant: SchedulerTimeType, location: CallLocation) {
    beginAdvancing("advance(to:)")
    defer { endAdvancing() }
    var steps = AdvanceSteps(advancing: self, to: instant)
    while let action = steps.next() { action() }
    steps.finish(location: location)
  }

  /// The loop of every advance, sync and async: which action runs next, when to stop, and what
  /// to do at the end. The sync and async loops differ only in what they do between actions
  /// (the async ones wait for the tasks an action woke), which Swift cannot abstract over.
  @usableFromInline
  struct AdvanceSteps {
    @usableFromInline let scheduler: TestScheduler
    /// The target instant of an advance; `nil` for `run()`, which runs everything.
    @usableFromInline let instant: SchedulerTimeType?
    /// `advance`'s bound on actions at one instant.
    @usableFromInline var bound: SameInstantBound
    /// `run()`'s bound on actions in all.
    @usableFromInline let maxActions: Int
    @usableFromInline var ran = 0
    /// Whether the last action given out reached the same-instant bound.
    @usableFromInline var reachedSameInstantBound = false

    /// The steps of `advance(to: instant)`.
    @inlinable
    init(advancing scheduler: TestScheduler, to instant: SchedulerTimeType) {
      self.scheduler = scheduler
      self.instant = instant
      let pending = scheduler.prepareToRun(through: instant)
      bound = SameInstantBound(limit: scheduler.sameInstantBound(pendingAtStart: pending))
      maxActions = .max
    }

    /// The steps of `run(maxActions:)`.
    @inlinable
    init(running scheduler: TestScheduler, maxActions: Int) {
      self.scheduler = scheduler
      instant = nil
      _ = scheduler.prepareToRun(through: nil)
      bound = SameInstantBound(limit: .max)
      self.maxActions = maxActions
    }

    /// The next action to run, moving the clock to its deadline; `nil` when the advance is
    /// done or has reached a bound.
    @inlinable
    mutating func next() -> (@Sendable () -> Void)? {
      guard !reachedSameInstantBound, ran < maxActions,
        let (action, movedClock) = scheduler.popNextAction(dueBy: instant)
      else { return nil }
      ran += 1
      if instant != nil, !bound.allows(anotherAfterMovingClock: movedClock) {
        reachedSameInstantBound = true
      }
      return action
    }

    /// Ends an advance: records a failure if it stopped at the same-instant bound, otherwise
    /// moves the clock to the target.
    @inlinable
    func finish(location: CallLocation) {
      guard let instant else { return }
      if reachedSameInstantBound {
        scheduler.reportSameInstantBound(bound, location: location)
      } else {
        scheduler.moveClockForward(to: instant)
      }
    }
  }

  /// How many actions one advance runs at a single instant before it decides the work keeps
  /// scheduling itself there: 100,000, or twice what was pending when the advance began
  /// (so that a test that queues a million actions at one instant still runs them all).
  @usableFromInline
  func sameInstantBound(pendingAtStart: Int) -> Int {
    max(100_000, pendingAtStart.multipliedReportingOverflow(by: 2).partialValue)
  }

  @usableFromInline
  func reportSameInstantBound(
    _ bound: SameInstantBound, location: CallLocation
  ) {
    let pending = pendingWork
    let shown = pending.prefix(5).map { "  - \($0)" }.joined(separator: "\n")
    TestFailure.record(
      """
      TestScheduler advance stopped after running \(bound.limit) actions at one instant without \
      the clock moving, with \(pending.count) still pending: work that schedules itself (or \
      other work) at the current instant never lets time move on. Schedule the next run \
      later, or cancel it.\(order.reproductionHint)
      \(shown)
      """,
      fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column, testName: createdInTest)
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
  @_specialize(
    exported:true,where
      SchedulerTimeType == DispatchQueue.SchedulerTimeType,
      SchedulerOptions == DispatchQueue.SchedulerOptions
  )
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
    var steps = AdvanceSteps(running: self, maxActions: maxActions)
    while let action = steps.next() { action() }
    reportRunBound(maxActions, fileID: fileID, filePath: filePath, line: line, column: column)
    return steps.ran
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

  /// Readies the queue to run what is due by `limit` (everything when `nil`), which sorts the
  /// due keys at once when they are most of a large queue, and returns how many actions are
  /// pending.
  @inlinable
  func prepareToRun(through limit: SchedulerTimeType?) -> Int {
    state.withLock { state in
      // An advance runs what is due by the later of its target and now.
      state.queue.prepareToRun(through: limit.map { max($0, state.now) })
      return state.queue.count
    }
  }

  /// Removes the next action due by `limit` (any deadline when `nil`), moves the clock to its
  /// deadline, reschedules it if it repeats, and returns it to run outside the lock.
  @inlinable
  func popNextAction(
    dueBy limit: SchedulerTimeType?
  ) -> (action: @Sendable () -> Void, movedClock: Bool)? {
    guard let (entry, _, movedClock) = popNextEntry(dueBy: limit) else { return nil }
    return (entry.action, movedClock)
  }

  /// Does ``popNextAction(dueBy:)``'s work under one lock, and returns the entry as it was
  /// queued with the clock as it stands for its run (`step()` describes what it ran from it),
  /// and whether the clock moved to reach it (what the same-instant bound counts by).
  @inlinable
  func popNextEntry(
    dueBy limit: SchedulerTimeType?
  ) -> (entry: ScheduleQueue<SchedulerTimeType>.Entry, now: SchedulerTimeType, movedClock: Bool)? {
    state.withLock {
      state -> (
        entry: ScheduleQueue<SchedulerTimeType>.Entry, now: SchedulerTimeType, movedClock: Bool
      )? in
      guard let deadline = state.queue.firstDeadline else { return nil }
      if let limit, deadline > limit, deadline > state.now { return nil }
      let movedClock = state.now < deadline
      if movedClock { state.now = deadline }
      guard let interval = state.queue.firstHandle?.interval else {
        return (state.queue.removeFirst(), state.now, movedClock)
      }
      let next = deadline.advanced(by: interval)
      precondition(
        next > deadline,
        "TestScheduler: a repeating action's next deadline overflows the clock (at \(deadline), every \(describeStride(interval)))"
      )
      // A repeating action keeps the order it was first scheduled with, so that repeating
      // actions due at the same instant run in the order they were first scheduled, every
      // tick (as in combine-schedulers). A shuffled scheduler draws a new place each tick.
      let entry = state.queue.rescheduleFirst(at: next, order: state.drawOrder())
      return (entry, state.now, movedClock)
    }
  }

  /// Marks the start of an advance, refusing one that would interleave with another: called
  /// from inside a running action, by a second task while an async advance is suspended, or
  /// from a second thread. Each message names which of the three happened.
  @usableFromInline
  func beginAdvancing(_ method: StaticString) {
    let caller = (thread: currentThreadID(), task: currentTaskID())
    let running = state.withLock { state -> (thread: UInt, task: UInt)? in
      if let running = state.advancing { return running }
      state.advancing = caller
      return nil
    }
    guard let running else {
      stalledSleepWatchdog.advanceStarted()
      return
    }
    if running.thread == caller.thread && running.task == caller.task {
      preconditionFailure(
        "TestScheduler.\(method) was called from inside a scheduled action while the scheduler was already advancing; advances cannot nest"
      )
    } else if running.task != caller.task && running.task != 0 && caller.task != 0 {
      preconditionFailure(
        "TestScheduler.\(method) was called by one task while another task's advance of the same scheduler had not returned (it was awaiting the tasks it woke); advance a test scheduler from one task at a time, for example only from the test's body"
      )
    } else {
      preconditionFailure(
        "TestScheduler.\(method) was called on two threads at once; advance a test scheduler from one thread at a time"
      )
    }
  }

  @usableFromInline
  func endAdvancing() {
    state.withLock { $0.advancing = nil }
  }
}

/// Where an advance was called, for the failure it may record.
@usableFromInline
typealias CallLocation = (fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)

/// Counts the actions an advance runs at one instant, to stop work that keeps scheduling
/// itself there.
@usableFromInline
struct SameInstantBound {
  @usableFromInline let limit: Int
  @usableFromInline var count = 0

  @inlinable init(limit: Int) { self.limit = limit }

  /// Counts an action, run after the clock moved to it or not; `false` once `limit` have run
  /// at one instant.
  @inlinable
  mutating func allows(anotherAfterMovingClock movedClock: Bool) -> Bool {
    count = movedClock ? 1 : count + 1
    return count < limit
  }
}

/// An identifier of the current task, 0 outside one: tells a second task of a deterministic
/// run (on the same driver thread) from an action inside the advance.
@usableFromInline
func currentTaskID() -> UInt {
  withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } ?? 0 }
}

import Dispatch

extension TestScheduler {
  /// Advances the clock by `stride`, and returns when everything that became runnable has run.
  ///
  /// Inside `withDeterministicExecution(scheduler:)` (from `SchedulersTesting`)
  /// the contract is exact: when the call returns, every task made runnable by the step
  /// (resumed sleepers, the tasks and actors they reach, the tasks those create) has run until
  /// it suspends on something not yet due, or finished. Sleepers registered during the step
  /// for instants inside the advanced range wake in the same call, in deadline order.
  ///
  /// ```swift
  /// model.startCountdown()
  /// await scheduler.advance(by: .seconds(1))
  /// #expect(model.secondsLeft == 2)
  /// ```
  ///
  /// Outside a deterministic run there is no way to know when a task has run as far as it can.
  /// The advance then does what combine-schedulers' does, so that suites ported from it keep
  /// their results: before each step and after each action it yields a burst of times
  /// (20 yields of a detached background task), which usually lets the tasks it woke (and a
  /// task that has not yet registered its sleep) reach their next suspension, and under load
  /// sometimes does not. A sleeper that registers after the clock has passed its deadline then
  /// waits for the next advance. If none comes (a test awaiting that task would wait forever),
  /// after 20 s of real time with no advance of any test scheduler, a watchdog records a failure
  /// at the sleep's line and ends the sleep with `CancellationError`. For exact steps, advance
  /// inside `withDeterministicExecution`.
  ///
  /// Actions run in the caller's isolation (the `isolation` parameter defaults to it), so a
  /// `@MainActor` test's advance runs `{ @MainActor in }` actions on the main actor.
  ///
  /// Like the synchronous advance, it stops and records a failure when work keeps scheduling
  /// itself at one instant.
  ///
  /// - Precondition: `stride` is not negative, and no other advance is running.
  @_specialize(
    exported:true,where
      SchedulerTimeType == DispatchQueue.SchedulerTimeType,
      SchedulerOptions == DispatchQueue.SchedulerOptions
  )
  public func advance(
    by stride: Stride = .zero,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    await advance(
      to: target(advancingBy: stride), fileID: fileID, filePath: filePath, line: line,
      column: column, isolation: isolation)
  }

  /// Advances the clock to `instant`, and returns when everything that became runnable has run.
  ///
  /// See ``advance(by:fileID:filePath:line:column:isolation:)`` for the contract inside a deterministic run.
  ///
  /// ```swift
  /// await scheduler.advance(to: scheduler.now.advanced(by: .seconds(5)))
  /// ```
  @_specialize(
    exported:true,where
      SchedulerTimeType == DispatchQueue.SchedulerTimeType,
      SchedulerOptions == DispatchQueue.SchedulerOptions
  )
  public func advance(
    to instant: SchedulerTimeType,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    let location = (fileID, filePath, line, column)
    let run = DeterministicRunContext.current
    beginAdvancing("advance(to:)")
    defer { endAdvancing() }
    await settle(in: run)
    var steps = AdvanceSteps(advancing: self, to: instant)
    while let action = steps.next() {
      action()
      await settle(in: run)
    }
    steps.finish(location: location)
  }

  /// Waits for the tasks the last step made runnable: exactly, until none is runnable, inside
  /// a deterministic run; outside one, as combine-schedulers' async `advance` does, with a
  /// burst of yields that usually (not always) lets them reach their next suspension.
  func settle(in run: (any DeterministicRunIdleness)?) async {
    if let run {
      await run.untilIdle()
    } else {
      await yieldOutsideARun()
    }
  }

  /// Runs actions until none is pending, waiting after each for the tasks it made runnable.
  ///
  /// Stops after `maxActions` and records a failure, as the synchronous
  /// ``run(maxActions:fileID:filePath:line:column:)`` does. Actions run in the caller's
  /// isolation.
  ///
  /// ```swift
  /// await scheduler.run()
  /// ```
  ///
  /// `maxActions` is the most actions this call runs before it stops and records a
  /// failure (when actions are still pending).
  @discardableResult
  @_specialize(
    exported:true,where
      SchedulerTimeType == DispatchQueue.SchedulerTimeType,
      SchedulerOptions == DispatchQueue.SchedulerOptions
  )
  public func run(
    maxActions: Int = 100_000,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async -> Int {
    precondition(
      maxActions >= 0,
      "TestScheduler.run(maxActions:) needs a bound of zero or more, got \(maxActions)")
    let run = DeterministicRunContext.current
    beginAdvancing("run()")
    defer { endAdvancing() }
    await settle(in: run)
    var steps = AdvanceSteps(running: self, maxActions: maxActions)
    while let action = steps.next() {
      action()
      await settle(in: run)
    }
    reportRunBound(maxActions, fileID: fileID, filePath: filePath, line: line, column: column)
    return steps.ran
  }

  /// A short description of the pending work, or `nil` when nothing is pending.
  package var pendingWorkDescription: String? {
    let pending = pendingWork
    guard !pending.isEmpty else { return nil }
    let shown = pending.prefix(5).map(\.description)
    let more = pending.count > 5 ? " and \(pending.count - 5) more" : ""
    return "\(pending.count) on the test scheduler: \(shown.joined(separator: "; "))\(more)"
      + order.reproductionHint
  }
}

/// How many times an async advance outside a deterministic run yields before each step, as
/// combine-schedulers' `Task.megaYield()` does, so that a suite ported from it gets at least
/// its results. The peer awaits 20 detached background tasks that each yield once; here one
/// detached background task yields 20 times, which gives the other tasks the same 20 turns
/// behind them for one task creation and one wake-up of the caller instead of twenty of each
/// (test-sleepers outside a run, 10k: 500 µs per sleeper that way, 50 µs this way; the ported
/// suite passes either way).
let yieldsOutsideARun = 20

func yieldOutsideARun() async {
  await Task.detached(priority: .background) {
    for _ in 0..<yieldsOutsideARun { await Task.yield() }
  }.value
}

import Dispatch

/// A task waiting for a test scheduler's pending work to reach a count.
@usableFromInline
struct PendingWorkWaiter: Sendable {
  let id: UInt64
  /// Resume when the queue holds at least this many actions.
  let count: Int
  let continuation: CheckedContinuation<Void, any Error>
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
  /// await scheduler.advance(by: .seconds(5))
  /// ```
  ///
  /// It runs in the caller's isolation (the `isolation` parameter defaults to it), so a
  /// `@MainActor` test counts the queue before the main actor can run anything else.
  public func waitForPendingWork(
    count: Int = 1, timeout: Duration = .seconds(60),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    precondition(
      count >= 0, "waitForPendingWork(count:) needs a count of zero or more, got \(count)")
    try await waitForQueue(
      count: { _ in count }, timeout: timeout,
      what: "\(count) pending action\(count == 1 ? "" : "s")", fileID: fileID, line: line,
      isolation: isolation)
  }

  /// Suspends until the next action is scheduled (counted from the call), resumed by the
  /// scheduler itself.
  ///
  /// ```swift
  /// model.refreshTapped()  // schedules its work from a task it starts
  /// try await scheduler.waitForNextScheduledAction()
  /// ```
  ///
  /// "Next" counts from the moment of the call, in the caller's isolation (the `isolation`
  /// parameter defaults to it): with a `@MainActor` model and test, the model's task cannot
  /// schedule before the count is taken, so the wait is for exactly that task's work.
  public func waitForNextScheduledAction(
    timeout: Duration = .seconds(60), fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try await waitForQueue(
      count: { $0 + 1 }, timeout: timeout, what: "the next scheduled action", fileID: fileID,
      line: line, isolation: isolation)
  }

  // Isolated to the caller, so that no suspension comes between the call and the count: a
  // nonisolated async function would hop off a `@MainActor` caller first, letting the main
  // actor run the very task whose work is awaited, and the wait would then count one too many.
  private func waitForQueue(
    count: @Sendable (_ pendingNow: Int) -> Int, timeout: Duration, what: String,
    fileID: StaticString, line: UInt, isolation: isolated (any Actor)?
  ) async throws {
    let id = UInt64.random(in: 0...UInt64.max)
    // Outside a deterministic run, the usual reason for a wait that times out is a task that
    // has not started yet: the hint says what to do instead. Read here, on the caller's task.
    let hint =
      DeterministicRunContext.current == nil
      ? """

      Outside a deterministic run, a task that should schedule this work may simply not have \
      run yet (what `Task.megaYield()` and `withMainSerialExecutor` hoped to arrange): run \
      the test under `withDeterministicExecution(scheduler:)` and `await scheduler.advance`, \
      which return once every woken task has run as far as it can.
      """ : ""
    try await withTaskCancellationHandler {
      // A closure is isolated to an `isolated` parameter only when it captures it (SE-0420).
      // Without this capture the operation was nonisolated: the task hopped off the caller's
      // actor here, before the count below, and a `@MainActor` model's task ran in between
      // (the doc example timed out every time; `WaitForNextScheduledActionDocExampleTests`).
      _ = isolation
      return try await withCheckedThrowingContinuation { continuation in
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
                \(list)\(self.order.reproductionHint)\(hint)
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

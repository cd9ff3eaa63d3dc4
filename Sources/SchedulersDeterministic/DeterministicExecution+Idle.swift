import Schedulers

extension DeterministicExecution {
  /// Suspends until every task of the current deterministic run has run as far as it can:
  /// until nothing in the run is runnable, and only a sleep, a continuation or outside work
  /// could make progress.
  ///
  /// For tests with no time in them: an actor stub that answers from a task the code under
  /// test starts, a stream fed by another task. Nothing to advance, yet the test must know
  /// when the tasks it started are done with what they can do:
  ///
  /// ```swift
  /// @Test func savingShowsTheSavedBadge() async throws {
  ///   try await withDeterministicExecution { @MainActor in
  ///     let model = EditorModel(store: StoreStub())
  ///     model.saveTapped()  // starts a task that awaits the actor stub
  ///     await DeterministicExecution.idle()
  ///     #expect(model.badge == "Saved")
  ///   }
  /// }
  /// ```
  ///
  /// With a test scheduler, `await scheduler.advance()` does the same and also runs what is
  /// due now. It runs in the caller's isolation (the `isolation` parameter defaults to it).
  ///
  /// Called outside a deterministic run, it records a failure at the call (nothing there can
  /// tell when the process is idle) and returns.
  public static func idle(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    guard let run = DeterministicRun.current else {
      TestFailure.record(
        """
        DeterministicExecution.idle() was called outside a deterministic run, where nothing \
        can tell when the process is idle: call it inside withDeterministicExecution { ... } \
        (or a test with the .deterministicExecution trait).
        """, fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    await run.untilIdle()
  }
}

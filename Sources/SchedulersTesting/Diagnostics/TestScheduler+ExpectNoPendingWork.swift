import Schedulers

extension TestScheduler {
  /// Records a test failure listing every action still pending, with its deadline and, where
  /// known, where it was scheduled. Call it at the end of a test (a `defer` does it on every
  /// path) to prove that the code under test left no timer, sleep or delayed work behind.
  ///
  /// ```swift
  /// @Test func reloadFinishes() {
  ///   let scheduler = DispatchQueue.test
  ///   defer { scheduler.expectNoPendingWork() }
  ///   let model = HomeModel(scheduler: scheduler.eraseToAnyScheduler())
  ///   model.reloadButtonTapped()
  ///   scheduler.advance(by: .seconds(10))
  /// }
  /// ```
  ///
  /// The failure reads, for example:
  ///
  /// ```
  /// The test scheduler has 1 action still pending:
  ///   - repeating every 1 s, due in 1 s, scheduled at HomeModel.swift:31
  /// ```
  ///
  /// - Returns: whether nothing was pending.
  @discardableResult
  public func expectNoPendingWork(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> Bool {
    let pending = pendingWork
    guard !pending.isEmpty else { return true }
    let noun = pending.count == 1 ? "action" : "actions"
    FailureReporter.recordFailure(
      """
      The test scheduler has \(pending.count) \(noun) still pending:
      \(pending.map { "  - \($0)" }.joined(separator: "\n"))\(order.reproductionHint)
      """,
      fileID: fileID, filePath: filePath, line: line, column: column)
    return false
  }
}

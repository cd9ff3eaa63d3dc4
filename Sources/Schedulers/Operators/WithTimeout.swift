/// Runs `operation`, and throws ``TimeoutError`` if it does not finish within `interval` of
/// `scheduler`'s time.
///
/// The operation's own value or error is returned or thrown as is. When the interval elapses
/// first, the operation is cancelled; cancelling the caller cancels both the operation and the
/// timer. On a test scheduler the timeout takes no real time:
///
/// ```swift
/// let answer = try await withTimeout(.seconds(5), scheduler: scheduler) {
///   try await api.fetchAnswer()
/// }
/// ```
///
/// The operation runs in a child task, so the call returns only once it has finished: an
/// operation that ignores cancellation delays the timeout error until it does. A test
/// scheduler's pending work names the caller's line as where the timeout's timer came from.
public func withTimeout<S: Scheduler & Sendable, R: Sendable>(
  _ interval: S.SchedulerTimeType.Stride,
  scheduler: S,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column,
  operation: @escaping @Sendable () async throws -> R
) async throws -> R where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  try await race([
    operation,
    {
      try await scheduler.sleep(
        for: interval, fileID: fileID, filePath: filePath, line: line, column: column)
      throw TimeoutError()
    },
  ])
}

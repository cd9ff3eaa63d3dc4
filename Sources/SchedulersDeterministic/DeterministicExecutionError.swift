/// The error thrown when a deterministic run cannot finish.
///
/// The run also records the same text as a failure of the running test, at the line that
/// started the run. A run that deadlocks cancels its body; if the body then finishes, this is
/// thrown in place of whatever the body returned or threw (typically a bare
/// `CancellationError`), so the report says what happened.
///
/// ```swift
/// do {
///   try await withDeterministicExecution(scheduler: scheduler) {
///     try await scheduler.sleep(for: .seconds(1))  // nobody advances
///   }
/// } catch let error as DeterministicExecutionError {
///   print(error)  // "Deterministic run deadlocked: ... Pending: 1 on the test scheduler: ..."
/// }
/// ```
public struct DeterministicExecutionError: Error, CustomStringConvertible {
  /// What went wrong, including any pending work.
  public let description: String
  /// Whether the body was still suspended when the run gave up: it never finished, even when
  /// cancelled, so a caller that must outlive it (the test trait) cannot return.
  package let bodyIsStuck: Bool

  package init(description: String, bodyIsStuck: Bool) {
    self.description = description
    self.bodyIsStuck = bodyIsStuck
  }
}

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

/// The error a timed-out operation throws.
///
/// ```swift
/// do {
///   _ = try await withTimeout(.seconds(5), scheduler: scheduler) { try await api.fetch() }
/// } catch is TimeoutError {
///   print("The operation timed out.")
/// }
/// ```
public struct TimeoutError: Error, Equatable, CustomStringConvertible {
  /// Creates a timeout error.
  public init() {}

  /// "The operation timed out."
  public var description: String { "The operation timed out." }
}

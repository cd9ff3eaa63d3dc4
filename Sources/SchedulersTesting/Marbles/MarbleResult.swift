import Dispatch
import Schedulers

/// What a marble test observed: the actual timeline, and how it compares with the expected one.
///
/// ```swift
/// let result = try await expectMarbles(
///   input:    "a--|",
///   expected: "---a|",
///   frame: .seconds(1)
/// ) { input, scheduler in
///   input.delay(for: .seconds(3), scheduler: scheduler)
/// }
/// print(result.actual)  // "---a--|"
/// ```
public struct MarbleResult<Value: Sendable>: Sendable {
  /// The events the operator produced, with their offsets from the start of the test.
  public let events: [(offset: DispatchQueue.SchedulerTimeType.Stride, event: MarbleEvent<Value>)]
  /// The actual timeline as a marble string.
  public let actual: String
  /// The failure the output ended with, if any, to check its type:
  /// `#expect(result.failure is TimeoutError)`.
  public var failure: (any Error)? {
    guard case .failed(let error)? = events.last?.event else { return nil }
    return error
  }
  /// Whether the actual timeline matched the expected one.
  public let matched: Bool
  /// The report recorded as a test failure when the timelines differ, or `nil`.
  public let report: String?
}

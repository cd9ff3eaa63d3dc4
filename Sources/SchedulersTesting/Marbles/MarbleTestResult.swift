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
///
/// `Stride` is the test scheduler's stride type; ``MarbleResult`` names the result of a test on
/// the default, Dispatch-timed, test scheduler.
public struct MarbleTestResult<Value: Sendable, Stride: Sendable>: Sendable {
  /// The events the operator produced, with their offsets from the start of the test.
  public let events: [(offset: Stride, event: MarbleEvent<Value>)]
  /// The actual timeline as a marble string.
  public let actual: String
  /// Each input's actual subscriptions as a marble string (`^` an iteration started, `!` it
  /// ended), in the order of the inputs.
  public let subscriptions: [String]
  /// The failure the output ended with, if any, to check its type:
  /// `#expect(result.failure is TimeoutError)`.
  public var failure: (any Error)? {
    guard case .failed(let error)? = events.last?.event else { return nil }
    return error
  }
  /// Whether the actual timeline (and the subscriptions, when expected) matched.
  public let matched: Bool
  /// The report recorded as a test failure when something differs, or `nil`.
  public let report: String?
}

/// The result of a marble test on a Dispatch-timed test scheduler (the default).
///
/// ```swift
/// let result: MarbleResult<String> = try await expectMarbles(
///   input: "a|", expected: "a|", frame: .seconds(1)
/// ) { input, _ in input }
/// ```
public typealias MarbleResult<Value: Sendable> = MarbleTestResult<
  Value, DispatchQueue.SchedulerTimeType.Stride
>

/// The error a `#` in an input marble string throws.
///
/// ```swift
/// let result = try await expectMarbles(input: "a#", expected: "a#", frame: .seconds(1)) {
///   input, _ in input
/// }
/// #expect(result.failure is MarbleFailure)
/// ```
public struct MarbleFailure: Error, Equatable, CustomStringConvertible {
  /// Creates the failure of an input timeline.
  public init() {}
  public var description: String { "the input's failure (#)" }
}

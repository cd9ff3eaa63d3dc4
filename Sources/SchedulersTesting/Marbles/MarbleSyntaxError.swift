/// A marble string that cannot be read, with the reason and where.
///
/// ```swift
/// do {
///   _ = try MarbleTimeline<String>.parse("a-|b", values: ["a": "a", "b": "b"])
/// } catch let error as MarbleSyntaxError {
///   print(error)  // "b" after the end of the timeline, at column 3 of "a-|b"
/// }
/// ```
public struct MarbleSyntaxError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, naming the character and its column.
  public let description: String
}

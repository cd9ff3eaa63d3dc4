#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The package's environment variables, read one way: a value the package does not know stops
/// the process with a message that names the variable and the values it takes, never ignored.
/// Every variable is listed, with its values, default and who needs it, in
/// docs/environment-variables.md.
package enum EnvironmentValue {
  /// The variable's value, `nil` when it is unset.
  package static func text(of name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// `name`'s value read by `parse`; stops the process, naming the variable and `expected`,
  /// when `parse` answers `nil`. `nil` when the variable is unset.
  package static func read<Value>(
    _ name: String, expected: String, _ parse: (String) -> Value?
  ) -> Value? {
    guard let text = text(of: name) else { return nil }
    guard let value = parse(text) else { preconditionFailure(refusal(name, expected, text)) }
    return value
  }

  /// The message a refused value stops the process with.
  package static func refusal(_ name: String, _ expected: String, _ text: String) -> String {
    "\(name) must be \(expected), got \"\(text)\" (unset it for the default)"
  }

  /// A number, decimal or `0x` hexadecimal, spaces ignored: how seeds are written.
  package static func number(_ text: String) -> UInt64? {
    let text = text.filter { $0 != " " }
    if text.lowercased().hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
    return UInt64(text)
  }

  /// What a seed variable takes, for refusals.
  package static let numberExpected = "a number, decimal or 0x hexadecimal"
}

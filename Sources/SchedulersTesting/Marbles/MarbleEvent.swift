/// One event of a marble timeline.
///
/// ```swift
/// let events: [MarbleEvent<String>] = [.value("a"), .finished]
/// ```
public enum MarbleEvent<Value: Sendable>: Sendable {
  /// An element.
  case value(Value)
  /// The sequence finished (`|` in a marble string).
  case finished
  /// The sequence failed (`#` in a marble string).
  case failed(any Error)

  /// Whether the event ends the timeline.
  public var isTerminal: Bool {
    if case .value = self { return false }
    return true
  }
}

extension MarbleEvent: Equatable where Value: Equatable {
  /// Values compare by value; any failure equals any other, since `#` names no error.
  public static func == (lhs: MarbleEvent, rhs: MarbleEvent) -> Bool {
    switch (lhs, rhs) {
    case (.value(let l), .value(let r)): l == r
    case (.finished, .finished), (.failed, .failed): true
    default: false
    }
  }
}

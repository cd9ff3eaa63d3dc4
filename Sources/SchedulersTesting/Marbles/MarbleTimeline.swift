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

/// A timeline written as a marble string, parsed into events at frames.
///
/// The syntax, as in RxJS:
/// - `-` one frame in which nothing happens;
/// - any other letter or digit: an element, in the frame of its column;
/// - `|` the finish, `#` a failure;
/// - `(ab)` events in the same frame (the frame of the `(`); as in RxJS, the group still takes
///   as many columns as it has characters, so every column stays one frame and timelines
///   written under each other line up.
///
/// Nothing may follow `|` or `#` but `-`.
///
/// ```swift
/// let timeline = try MarbleTimeline<String>.parse("a-(bc)-|", values: ["a": "a", "b": "b", "c": "c"])
/// // a at frame 0, b and c at frame 2, finish at frame 7
/// ```
public struct MarbleTimeline<Value: Sendable>: Sendable {
  /// The events, in order, each with the frame it happens in.
  public var events: [(frame: Int, event: MarbleEvent<Value>)]

  /// Creates a timeline from events at frames.
  public init(events: [(frame: Int, event: MarbleEvent<Value>)]) {
    self.events = events
  }

  /// The frame count the string spans (its length in columns).
  public var lastFrame: Int { events.last?.frame ?? 0 }

  /// Reads a marble string; each element character is looked up in `values`.
  public static func parse(_ marbles: String, values: [Character: Value]) throws(MarbleSyntaxError)
    -> MarbleTimeline
  {
    var events: [(frame: Int, event: MarbleEvent<Value>)] = []
    var groupFrame: Int?
    var ended = false
    for (column, character) in marbles.enumerated() {
      func fail(_ problem: String) -> MarbleSyntaxError {
        MarbleSyntaxError(
          description: "\(problem), at column \(column) of \"\(marbles)\"")
      }
      let frame = groupFrame ?? column
      switch character {
      case "-":
        if groupFrame != nil { throw fail("\"-\" inside a group") }
        continue
      case "(":
        if groupFrame != nil { throw fail("a group inside a group") }
        groupFrame = column
        continue
      case ")":
        if groupFrame == nil { throw fail("\")\" without \"(\"") }
        groupFrame = nil
        continue
      default:
        break
      }
      if ended { throw fail("\"\(character)\" after the end of the timeline") }
      switch character {
      case "|":
        events.append((frame, .finished))
        ended = true
      case "#":
        events.append((frame, .failed(MarbleFailure())))
        ended = true
      default:
        guard let value = values[character] else {
          throw fail("\"\(character)\" has no value (give it one in `values:`)")
        }
        events.append((frame, .value(value)))
      }
    }
    if groupFrame != nil {
      throw MarbleSyntaxError(description: "a group is not closed in \"\(marbles)\"")
    }
    return MarbleTimeline(events: events)
  }

  /// Writes the timeline as a marble string, naming each value with `name`.
  public func render(naming name: (Value) -> Character) -> String {
    var text = ""
    var index = 0
    while index < events.count {
      let frame = events[index].frame
      var group: [Character] = []
      while index < events.count, events[index].frame == frame {
        switch events[index].event {
        case .value(let value): group.append(name(value))
        case .finished: group.append("|")
        case .failed: group.append("#")
        }
        index += 1
      }
      if text.count < frame { text += String(repeating: "-", count: frame - text.count) }
      text += group.count == 1 ? String(group) : "(\(String(group)))"
    }
    return text
  }
}

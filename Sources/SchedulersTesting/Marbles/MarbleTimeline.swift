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

  /// The frame of the last event, or 0 for a timeline without events. Trailing `-` after the
  /// last event are not events, so they do not count.
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

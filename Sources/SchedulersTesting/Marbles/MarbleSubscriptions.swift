/// The subscription marbles of one input, as in RxJS: `^` where an iteration of the input
/// started, `!` where it ended, `-` for a frame, `(^!)` for both in one frame.
///
/// ```
/// input:         -a--b--|
/// subscriptions: ^------!     subscribed at the start, ended with the input's finish
/// ```
enum MarbleSubscriptions {
  /// Reads a subscription marble string.
  static func parse(_ marbles: String) throws(MarbleSyntaxError) -> [(
    frame: Int, event: MarbleSubscriptionEvent
  )] {
    var events: [(frame: Int, event: MarbleSubscriptionEvent)] = []
    var groupFrame: Int?
    for (column, character) in marbles.enumerated() {
      func fail(_ problem: String) -> MarbleSyntaxError {
        MarbleSyntaxError(description: "\(problem), at column \(column) of \"\(marbles)\"")
      }
      let frame = groupFrame ?? column
      switch character {
      case "-":
        if groupFrame != nil { throw fail("\"-\" inside a group") }
      case "(":
        if groupFrame != nil { throw fail("a group inside a group") }
        groupFrame = column
      case ")":
        if groupFrame == nil { throw fail("\")\" without \"(\"") }
        groupFrame = nil
      case "^": events.append((frame, .subscribed))
      case "!": events.append((frame, .ended))
      default:
        throw fail(
          "\"\(character)\" in subscription marbles (only ^, !, -, and groups in parentheses)")
      }
    }
    if groupFrame != nil {
      throw MarbleSyntaxError(description: "a group is not closed in \"\(marbles)\"")
    }
    return events
  }

  /// Writes subscription events at frames as a marble string.
  static func render(_ events: [(frame: Int, event: MarbleSubscriptionEvent)]) -> String {
    MarbleTimeline<MarbleSubscriptionEvent>(
      events: events.map { ($0.frame, MarbleEvent.value($0.event)) }
    ).render(naming: \.symbol)
  }
}

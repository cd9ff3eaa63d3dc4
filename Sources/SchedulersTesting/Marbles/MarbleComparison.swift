import Schedulers

/// Compares expected and actual events at exact offsets, and writes the report of a mismatch.
struct MarbleComparison<
  Value: Sendable & Equatable,
  Stride: SchedulerTimeIntervalConvertible & Comparable & SignedNumeric & Sendable
> {
  typealias Subscriptions = [(offset: Stride, event: MarbleSubscriptionEvent)]
  let frames: MarbleFrames<Stride>
  let inputs: [String]
  let expected: String
  let expectedTimeline: MarbleTimeline<Value>
  let actualEvents: [(offset: Stride, event: MarbleEvent<Value>)]
  /// Per input: the subscription marbles expected (or `nil` when not checked), and the log.
  let expectedSubscriptions: [String]?
  let actualSubscriptions: [Subscriptions]
  let name: (Value) -> Character

  var expectedEvents: [(offset: Stride, event: MarbleEvent<Value>)] {
    expectedTimeline.events.map { (frames.offset(ofFrame: $0.frame), $0.event) }
  }

  var outputMatches: Bool {
    let expected = expectedEvents
    return expected.count == actualEvents.count
      && zip(expected, actualEvents).allSatisfy { $0.offset == $1.offset && $0.event == $1.event }
  }

  func subscriptionsMatch(_ index: Int) throws(MarbleSyntaxError) -> Bool {
    guard let expectedSubscriptions else { return true }
    let expected = try MarbleSubscriptions.parse(expectedSubscriptions[index]).map {
      (frames.offset(ofFrame: $0.frame), $0.event)
    }
    let actual = actualSubscriptions[index]
    return expected.count == actual.count
      && zip(expected, actual).allSatisfy { $0.0 == $1.offset && $0.1 == $1.event }
  }

  /// The actual events as a marble string (events between frames go in the frame they fall in).
  var actualMarbles: String {
    MarbleTimeline(
      events: actualEvents.map { (frames.position(of: $0.offset).frame, $0.event) }
    ).render(naming: name)
  }

  /// An input's actual subscriptions as a marble string.
  func actualSubscriptionMarbles(_ index: Int) -> String {
    MarbleSubscriptions.render(
      actualSubscriptions[index].map { (frames.position(of: $0.offset).frame, $0.event) })
  }

  /// Whether some actual event falls between two frames (its column is then approximate).
  var offFrame: Bool {
    actualEvents.contains { !frames.position(of: $0.offset).onFrame }
  }

  /// A side-by-side report: the timelines, then each instant where they differ.
  func report(title: String) throws(MarbleSyntaxError) -> String {
    let inputLines =
      inputs.count == 1
      ? ["  input:    \(inputs[0])"]
      : inputs.indices.map { "  input \($0):  \(inputs[$0])" }
    var lines = ["\(title) (one frame = \(describeStride(frames.frame))):"] + inputLines
    lines += [
      "  expected: \(expected)",
      "  actual:   \(actualMarbles)\(offFrame ? "  (events between frames are listed below)" : "")",
    ]
    let expected = expectedEvents
    var offsets = (expected.map(\.offset) + actualEvents.map(\.offset)).sorted()
    offsets = offsets.enumerated().filter { $0.offset == 0 || offsets[$0.offset - 1] != $0.element }
      .map(\.element)
    for offset in offsets {
      let want = expected.filter { $0.offset == offset }.map(\.event)
      let got = actualEvents.filter { $0.offset == offset }.map(\.event)
      guard want != got else { continue }
      lines.append(
        "  at \(describe(offset)): expected \(describe(want)), got \(describe(got))")
    }
    if let expectedSubscriptions {
      for index in inputs.indices where try !subscriptionsMatch(index) {
        let which = inputs.count == 1 ? "the input" : "input \(index)"
        lines.append("  subscriptions of \(which) differ:")
        lines.append("    expected: \(expectedSubscriptions[index])")
        lines.append("    actual:   \(actualSubscriptionMarbles(index))")
      }
    }
    return lines.joined(separator: "\n")
  }

  private func describe(_ offset: Stride) -> String {
    let (frame, onFrame) = frames.position(of: offset)
    if onFrame { return "frame \(frame) (\(describeStride(offset)))" }
    return "\(describeStride(offset)), between frames \(frame) and \(frame + 1)"
  }

  private func describe(_ events: [MarbleEvent<Value>]) -> String {
    guard !events.isEmpty else { return "nothing" }
    return events.map { event in
      switch event {
      case .value(let value):
        let character = name(value)
        return character == "?" ? "\(value)" : "\(character)"
      case .finished: return "| (finish)"
      case .failed(let error): return "# (\(error))"
      }
    }.joined(separator: " and ")
  }
}

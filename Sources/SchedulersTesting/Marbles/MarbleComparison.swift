import Dispatch
import Schedulers

/// Compares expected and actual events at exact offsets, and writes the report of a mismatch.
struct MarbleComparison<Value: Sendable & Equatable> {
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride
  let frame: Stride
  let input: String
  let expected: String
  let expectedTimeline: MarbleTimeline<Value>
  let actualEvents: [(offset: Stride, event: MarbleEvent<Value>)]
  let name: (Value) -> Character

  var expectedEvents: [(offset: Stride, event: MarbleEvent<Value>)] {
    expectedTimeline.events.map { (Stride.nanoseconds($0.frame * frame.magnitude), $0.event) }
  }

  var matches: Bool {
    let expected = expectedEvents
    return expected.count == actualEvents.count
      && zip(expected, actualEvents).allSatisfy { $0.offset == $1.offset && $0.event == $1.event }
  }

  /// The actual events as a marble string (events between frames go in the frame they fall in).
  var actualMarbles: String {
    MarbleTimeline(
      events: actualEvents.map { (Int($0.offset.magnitude / frame.magnitude), $0.event) }
    ).render(naming: name)
  }

  /// Whether some actual event falls between two frames (its column is then approximate).
  var offFrame: Bool {
    actualEvents.contains { $0.offset.magnitude % frame.magnitude != 0 }
  }

  /// A side-by-side report: the three timelines, then each instant where they differ.
  func report(title: String) -> String {
    var lines = [
      "\(title) (one frame = \(describeStride(frame))):",
      "  input:    \(input)",
      "  expected: \(expected)",
      "  actual:   \(actualMarbles)\(offFrame ? "  (events between frames are listed below)" : "")",
    ]
    let expected = Dictionary(grouping: expectedEvents, by: \.offset)
    let actual = Dictionary(grouping: actualEvents, by: \.offset)
    for offset in Set(expected.keys).union(actual.keys).sorted() {
      let want = expected[offset]?.map(\.event) ?? []
      let got = actual[offset]?.map(\.event) ?? []
      guard want != got else { continue }
      lines.append(
        "  at \(describe(offset)): expected \(describe(want)), got \(describe(got))")
    }
    return lines.joined(separator: "\n")
  }

  private func describe(_ offset: Stride) -> String {
    let (frames, rest) = offset.magnitude.quotientAndRemainder(dividingBy: frame.magnitude)
    if rest == 0 { return "frame \(frames) (\(describeStride(offset)))" }
    return "\(describeStride(offset)), between frames \(frames) and \(frames + 1)"
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

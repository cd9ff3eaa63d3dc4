import Dispatch
import Schedulers
import Synchronization

/// The parsed timelines and the instants of one marble test.
struct MarblePlan<Input: Sendable, Output: Sendable & Equatable>: Sendable {
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride
  let input: String
  let expected: String
  let frame: Stride
  let inputTimeline: MarbleTimeline<Input>
  let expectedTimeline: MarbleTimeline<Output>
  let expectedValues: [Character: Output]
  let scheduler = DispatchQueue.test
  let start: DispatchQueue.SchedulerTimeType
  let endOfStrings: DispatchQueue.SchedulerTimeType
  let horizon: DispatchQueue.SchedulerTimeType

  init(
    input: String, expected: String, frame: Stride, values: [Character: Input],
    expectedValues: [Character: Output], maxFrames: Int
  ) throws(MarbleSyntaxError) {
    precondition(
      frame > .zero, "A marble test needs a frame longer than zero, got \(describeStride(frame))")
    precondition(maxFrames >= 0, "A marble test needs maxFrames of zero or more, got \(maxFrames)")
    self.input = input
    self.expected = expected
    self.frame = frame
    self.expectedValues = expectedValues
    inputTimeline = try MarbleTimeline.parse(input, values: values)
    expectedTimeline = try MarbleTimeline.parse(expected, values: expectedValues)
    start = scheduler.now
    let lastColumn = max(input.count, expected.count, 1) - 1
    endOfStrings = start.advanced(by: Stride.nanoseconds(lastColumn * frame.magnitude))
    horizon = start.advanced(
      by: Stride.nanoseconds(max(maxFrames, lastColumn) * frame.magnitude))
  }

  /// Schedules every input event at its frame, in order.
  func playInput(into handler: @escaping @Sendable (MarbleEvent<Input>) -> Void) {
    for (frame, event) in inputTimeline.events {
      scheduler.schedule(
        after: start.advanced(by: Stride.nanoseconds(frame * self.frame.magnitude))
      ) { handler(event) }
    }
  }

  func result(
    of events: [(offset: Stride, event: MarbleEvent<Output>)],
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) -> MarbleResult<Output> {
    let names = expectedValues
    let comparison = MarbleComparison(
      frame: frame, input: input, expected: expected, expectedTimeline: expectedTimeline,
      actualEvents: events,
      name: { value in names.first { $0.value == value }?.key ?? "?" })
    let matched = comparison.matches
    let report = matched ? nil : comparison.report(title: "The output differs from the marbles")
    if let report {
      TestFailureReporter.recordFailure(
        report, fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return MarbleResult(
      events: events, actual: comparison.actualMarbles, matched: matched, report: report)
  }
}

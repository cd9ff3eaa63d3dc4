import Schedulers

/// The parsed timelines and the instants of one marble test, on one test scheduler.
struct MarblePlan<
  Input: Sendable, Output: Sendable & Equatable, Time: Strideable & Sendable, Options
>: Sendable
where Time.Stride: SchedulerTimeIntervalConvertible & Sendable {
  typealias Stride = Time.Stride
  let inputs: [String]
  let expected: String
  let expectedSubscriptions: [String]?
  let frames: MarbleFrames<Stride>
  let inputTimelines: [MarbleTimeline<Input>]
  let expectedTimeline: MarbleTimeline<Output>
  let expectedValues: [Character: Output]
  /// The frame the consumer is cancelled at, if the test says so.
  let cancelFrame: Int?
  let scheduler: TestScheduler<Time, Options>
  let start: Time
  let endOfStrings: Time
  let horizon: Time
  let instants: MarbleInstants<Stride>
  /// One per input, playing its timeline.
  let sources: [MarbleSource<Input>]

  init(
    inputs: [String], subscriptions: [String]?, expected: String, cancelConsumer: String?,
    frame: Stride, scheduler: TestScheduler<Time, Options>, values: [Character: Input],
    expectedValues: [Character: Output], maxFrames: Int
  ) throws(MarbleSyntaxError) {
    precondition(
      frame > .zero, "A marble test needs a frame longer than zero, got \(describeStride(frame))")
    precondition(maxFrames >= 0, "A marble test needs maxFrames of zero or more, got \(maxFrames)")
    precondition(!inputs.isEmpty, "A marble test needs at least one input")
    if let subscriptions {
      precondition(
        subscriptions.count == inputs.count,
        "A marble test needs one subscription string per input: \(inputs.count) inputs, \(subscriptions.count) subscription strings"
      )
      for marbles in subscriptions { _ = try MarbleSubscriptions.parse(marbles) }
    }
    self.inputs = inputs
    self.expected = expected
    self.expectedSubscriptions = subscriptions
    self.frames = MarbleFrames(frame: frame)
    self.expectedValues = expectedValues
    var timelines: [MarbleTimeline<Input>] = []
    for input in inputs { timelines.append(try MarbleTimeline.parse(input, values: values)) }
    inputTimelines = timelines
    expectedTimeline = try MarbleTimeline.parse(expected, values: expectedValues)
    cancelFrame = try cancelConsumer.map { marbles throws(MarbleSyntaxError) in
      try Self.cancelFrame(in: marbles)
    }
    self.scheduler = scheduler
    let start = scheduler.now
    self.start = start
    let strings = inputs + [expected] + (subscriptions ?? []) + (cancelConsumer.map { [$0] } ?? [])
    let lastColumn = max(strings.map(\.count).max() ?? 1, 1) - 1
    let frames = self.frames
    endOfStrings = start.advanced(by: frames.offset(ofFrame: lastColumn))
    horizon = start.advanced(by: frames.offset(ofFrame: max(maxFrames, lastColumn)))
    let instants = MarbleInstants<Stride> { [weak scheduler] in
      start.distance(to: scheduler?.now ?? start)
    }
    self.instants = instants
    sources = inputs.map { _ in MarbleSource<Input>(currentInstant: instants.current) }
  }

  /// The frame of the one `!` of a consumer-cancellation string.
  private static func cancelFrame(in marbles: String) throws(MarbleSyntaxError) -> Int {
    let events = try MarbleSubscriptions.parse(marbles)
    guard events.count == 1, events[0].event == .ended else {
      throw MarbleSyntaxError(
        description:
          "a consumer cancellation is one \"!\" at its frame, such as \"---!\", got \"\(marbles)\""
      )
    }
    return events[0].frame
  }

  /// The offset of the scheduler's current instant from the start.
  var offsetNow: @Sendable () -> Stride {
    { [start, scheduler] in start.distance(to: scheduler.now) }
  }

  /// The inputs the operator under test reads.
  var marbleInputs: [MarbleInput<Input>] { sources.map { MarbleInput(source: $0) } }

  /// Schedules every input event at its frame, in order: each input's events go to its
  /// subscribers, and to `handler` if given (the callback form).
  func playInputs(into handler: (@Sendable (MarbleEvent<Input>) -> Void)? = nil) {
    for (timeline, source) in zip(inputTimelines, sources) {
      for (frame, event) in timeline.events {
        scheduler.schedule(after: start.advanced(by: frames.offset(ofFrame: frame))) {
          source.emit(event)
          handler?(event)
        }
      }
    }
  }

  /// The instant the consumer is cancelled at, if the test says so.
  var cancelInstant: Time? {
    cancelFrame.map { start.advanced(by: frames.offset(ofFrame: $0)) }
  }

  /// Ends the inputs: the subscription logs stop, and every subscription still open finishes.
  func closeInputs() {
    for source in sources { source.close() }
  }

  func result(
    of events: [(offset: Stride, event: MarbleEvent<Output>)],
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) throws(MarbleSyntaxError) -> MarbleTestResult<Output, Stride> {
    let names = expectedValues
    let subscriptionLogs = sources.map { source in
      source.log.map { (offset: instants.offset(at: $0.instant), event: $0.event) }
    }
    let comparison = MarbleComparison(
      frames: frames, inputs: inputs, expected: expected, expectedTimeline: expectedTimeline,
      actualEvents: events, expectedSubscriptions: expectedSubscriptions,
      actualSubscriptions: subscriptionLogs,
      name: { value in names.first { $0.value == value }?.key ?? "?" })
    var matched = comparison.outputMatches
    for index in inputs.indices where try !comparison.subscriptionsMatch(index) { matched = false }
    let report =
      matched
      ? nil
      : try comparison.report(
        title: comparison.outputMatches
          ? "The subscriptions differ from the marbles" : "The output differs from the marbles")
    if let report {
      FailureReporter.recordFailure(
        report, fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return MarbleTestResult(
      events: events, actual: comparison.actualMarbles,
      subscriptions: inputs.indices.map(comparison.actualSubscriptionMarbles), matched: matched,
      report: report)
  }
}

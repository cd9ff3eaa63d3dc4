import Dispatch
import Schedulers
import Synchronization

/// The input sequence of a marble test: it yields the input timeline's elements at their
/// frames, finishes at `|` and throws ``MarbleFailure`` at `#`.
public typealias MarbleInput<Value: Sendable> = AsyncThrowingStream<Value, any Error>

/// Tests an `AsyncSequence` operator (this package's or your own) against marble diagrams:
/// the input timeline is played on a fresh test scheduler, the operator's output is recorded
/// with the instant of each event, and a test failure shows both timelines if they differ.
///
/// ```swift
/// @Test func debounce() async throws {
///   try await expectMarbles(
///     input:    "abcd----e---f-g----|",
///     expected: "------d----e-----g-|",
///     frame: .milliseconds(100)
///   ) { input, scheduler in
///     input.debounce(for: .milliseconds(300), scheduler: scheduler)
///   }
/// }
/// ```
///
/// Each column is one `frame` of virtual time; see ``MarbleTimeline`` for the syntax. In this
/// overload every character stands for the one-character string it is. Time runs to the end of
/// the longer string, then on while the operator has work pending and has not ended, up to
/// `maxFrames`; the operator is then cancelled. A mismatch records one failure listing the
/// input, expected and actual timelines and each instant where they differ.
///
/// The test runs inside ``Schedulers/withDeterministicExecution(scheduler:outsideWorkTimeout:fileID:filePath:line:column:_:)``,
/// so an operator's tasks have always run before time moves on. Each call uses its own test
/// scheduler and recorder: marble tests can run in parallel (their deterministic runs take
/// turns).
///
/// - Throws: ``MarbleSyntaxError`` for a marble string that cannot be read, or the run's
///   ``Schedulers/DeterministicExecutionError``.
@discardableResult
public func expectMarbles<Operated: AsyncSequence & Sendable>(
  input: String,
  expected: String,
  frame: DispatchQueue.SchedulerTimeType.Stride,
  maxFrames: Int = 1_000,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ operation:
    @escaping @Sendable (MarbleInput<String>, TestSchedulerOf<DispatchQueue>) ->
    Operated
) async throws -> MarbleResult<String> where Operated.Element == String {
  try await expectMarbles(
    input: input, expected: expected, frame: frame,
    values: MarbleTimeline<String>.characterValues(of: input),
    expectedValues: MarbleTimeline<String>.characterValues(of: expected),
    maxFrames: maxFrames, fileID: fileID, filePath: filePath, line: line, column: column,
    operation)
}

/// Tests an `AsyncSequence` operator against marble diagrams, with the values each character
/// stands for.
///
/// ```swift
/// try await expectMarbles(
///   input:    "a-b-|",
///   expected: "x-y-|",
///   frame: .seconds(1),
///   values: ["a": 1, "b": 2],
///   expectedValues: ["x": 10, "y": 20]
/// ) { input, _ in
///   input.map { $0 * 10 }
/// }
/// ```
///
/// See ``expectMarbles(input:expected:frame:maxFrames:fileID:filePath:line:column:_:)``.
@discardableResult
public func expectMarbles<
  Input: Sendable, Output: Sendable & Equatable, Operated: AsyncSequence & Sendable
>(
  input: String,
  expected: String,
  frame: DispatchQueue.SchedulerTimeType.Stride,
  values: [Character: Input],
  expectedValues: [Character: Output],
  maxFrames: Int = 1_000,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ operation: @escaping @Sendable (MarbleInput<Input>, TestSchedulerOf<DispatchQueue>) -> Operated
) async throws -> MarbleResult<Output> where Operated.Element == Output {
  let plan = try MarblePlan(
    input: input, expected: expected, frame: frame, values: values,
    expectedValues: expectedValues, maxFrames: maxFrames)
  let scheduler = plan.scheduler
  let recording = MarbleRecording<Output>(scheduler: scheduler)
  try await withDeterministicExecution(
    scheduler: scheduler, fileID: fileID, filePath: filePath, line: line, column: column
  ) {
    let (stream, continuation) = MarbleInput<Input>.makeStream()
    plan.playInput { event in
      switch event {
      case .value(let value): continuation.yield(value)
      case .finished: continuation.finish()
      case .failed(let error): continuation.finish(throwing: error)
      }
    }
    let consumer = Task {
      var iterator = operation(stream, scheduler).makeAsyncIterator()
      do {
        while let value = try await iterator.next(isolation: nil) {
          recording.record(.value(value))
        }
        recording.record(.finished)
      } catch {
        recording.record(.failed(error))
      }
    }
    await scheduler.advance()
    await scheduler.advance(to: plan.endOfStrings)
    while !recording.hasEnded, let next = scheduler.nextDeadline, next <= plan.horizon {
      await scheduler.advance(to: next)
    }
    recording.stop()
    consumer.cancel()
    continuation.finish()
    await consumer.value
  }
  return plan.result(
    of: recording.events, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Tests a callback-based operator (a ``Schedulers/Debouncer``, a ``Schedulers/Throttler``, or
/// your own) against marble diagrams, synchronously on a test scheduler.
///
/// `makeOperator` receives the test scheduler and an output to send events to, and returns
/// the function each input event is handed to, at its frame:
///
/// ```swift
/// @Test func debouncer() {
///   expectCallbackMarbles(
///     input:    "abcd----e---f-g----|",
///     expected: "------d----e-----g--",
///     frame: .milliseconds(100)
///   ) { scheduler, output in
///     let debouncer = Debouncer(for: .milliseconds(300), scheduler: scheduler)
///     return { event in
///       if case .value(let value) = event { debouncer.call { output.send(value) } }
///     }
///   }
/// }
/// ```
///
/// Every character stands for the one-character string it is. Time runs as in
/// ``expectMarbles(input:expected:frame:maxFrames:fileID:filePath:line:column:_:)``.
///
/// - Throws: ``MarbleSyntaxError`` for a marble string that cannot be read.
@discardableResult
public func expectCallbackMarbles(
  input: String,
  expected: String,
  frame: DispatchQueue.SchedulerTimeType.Stride,
  maxFrames: Int = 1_000,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ makeOperator: (TestSchedulerOf<DispatchQueue>, MarbleOutput<String>) ->
    @Sendable (MarbleEvent<String>) -> Void
) throws -> MarbleResult<String> {
  let plan = try MarblePlan(
    input: input, expected: expected, frame: frame,
    values: MarbleTimeline<String>.characterValues(of: input),
    expectedValues: MarbleTimeline<String>.characterValues(of: expected), maxFrames: maxFrames)
  let scheduler = plan.scheduler
  let output = MarbleOutput<String>(recording: MarbleRecording(scheduler: scheduler))
  // The operator lives until the end of the test, as it would in the object that owns it.
  let handler = makeOperator(scheduler, output)
  plan.playInput(into: handler)
  withExtendedLifetime(handler) {
    scheduler.advance(to: plan.endOfStrings)
    while !output.recording.hasEnded, let next = scheduler.nextDeadline, next <= plan.horizon {
      scheduler.advance(to: next)
    }
    output.recording.stop()
  }
  return plan.result(
    of: output.recording.events, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Where a callback-based operator under a marble test sends its output.
///
/// ```swift
/// output.send("a")
/// output.finish()
/// ```
public final class MarbleOutput<Value: Sendable>: Sendable {
  let recording: MarbleRecording<Value>

  init(recording: MarbleRecording<Value>) { self.recording = recording }

  /// Records an element at the scheduler's current instant.
  public func send(_ value: Value) { recording.record(.value(value)) }
  /// Records the finish (`|`).
  public func finish() { recording.record(.finished) }
  /// Records a failure (`#`).
  public func fail(_ error: any Error) { recording.record(.failed(error)) }
}

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
    precondition(frame > .zero, "A marble test needs a frame longer than zero, got \(frame)")
    precondition(maxFrames >= 0, "A marble test needs maxFrames of zero or more, got \(maxFrames)")
    self.input = input
    self.expected = expected
    self.frame = frame
    self.expectedValues = expectedValues
    inputTimeline = try MarbleTimeline.parse(input, values: values)
    expectedTimeline = try MarbleTimeline.parse(expected, values: expectedValues)
    start = scheduler.now
    let lastColumn = max(input.count, expected.count, 1) - 1
    endOfStrings = start.advanced(by: Stride(nanoseconds: lastColumn * frame.nanoseconds))
    horizon = start.advanced(
      by: Stride(nanoseconds: max(maxFrames, lastColumn) * frame.nanoseconds))
  }

  /// Schedules every input event at its frame, in order.
  func playInput(into handler: @escaping @Sendable (MarbleEvent<Input>) -> Void) {
    for (frame, event) in inputTimeline.events {
      scheduler.schedule(
        after: start.advanced(by: Stride(nanoseconds: frame * self.frame.nanoseconds))
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

/// The events an operator produced, each with its offset from the start of the test.
final class MarbleRecording<Value: Sendable>: Sendable {
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride
  private struct State {
    var events: [(offset: Stride, event: MarbleEvent<Value>)] = []
    var stopped = false
  }
  private let scheduler: TestSchedulerOf<DispatchQueue>
  private let start: DispatchQueue.SchedulerTimeType
  private let state = Mutex(State())

  init(scheduler: TestSchedulerOf<DispatchQueue>) {
    self.scheduler = scheduler
    self.start = scheduler.now
  }

  /// Records an event at the scheduler's current instant, until the test stops recording (the
  /// cancellation that ends the test is not part of the timeline).
  func record(_ event: MarbleEvent<Value>) {
    let offset = start.distance(to: scheduler.now)
    state.withLock { state in
      if !state.stopped { state.events.append((offset, event)) }
    }
  }

  var hasEnded: Bool { state.withLock { $0.events.last?.event.isTerminal ?? false } }

  func stop() { state.withLock { $0.stopped = true } }

  var events: [(offset: Stride, event: MarbleEvent<Value>)] { state.withLock { $0.events } }
}

extension MarbleTimeline where Value == String {
  /// Every element character of `marbles`, standing for itself.
  static func characterValues(of marbles: String) -> [Character: String] {
    var values: [Character: String] = [:]
    for character in marbles where !"-()|#".contains(character) {
      values[character] = String(character)
    }
    return values
  }
}

import Dispatch
import Schedulers

/// Tests a callback-based operator (a `Debouncer`, a `Throttler`, or
/// your own) against marble diagrams, synchronously on a test scheduler.
///
/// `makeOperator` receives the test scheduler and an output to send events to, and returns
/// the function each input event is handed to, at its frame:
///
/// ```swift
/// @Test func debouncer() throws {
///   try expectCallbackMarbles(
///     input:    "abcd----e---f-g----|",
///     expected: "------d----e-----g-|",
///     frame: .milliseconds(100)
///   ) { scheduler, output in
///     let debouncer = Debouncer(for: .milliseconds(300), scheduler: scheduler)
///     return { event in
///       switch event {
///       case .value(let value): debouncer.call { output.send(value) }
///       case .finished: output.finish()  // or flush the debouncer first
///       case .failed(let error): output.fail(error)
///       }
///     }
///   }
/// }
/// ```
///
/// Every character stands for the one-character string it is. Time runs as in
/// ``expectMarbles(input:subscriptions:expected:cancelConsumer:frame:maxFrames:fileID:filePath:line:column:_:)``;
/// the output ends when the operator calls `output.finish()` or `output.fail(_:)`.
///
/// `maxFrames` is the last frame the test plays (or the end of the longer marble
/// string, if that is later): an operator that has not ended by then is cancelled, and its
/// output compared as it stands. Bounds a test of an operator
/// that never finishes (a timer, a bug) instead of letting it run forever.
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
  try expectCallbackMarbles(
    input: input, expected: expected, frame: frame, scheduler: DispatchQueue.test,
    values: MarbleTimeline<String>.characterValues(of: input),
    expectedValues: MarbleTimeline<String>.characterValues(of: expected), maxFrames: maxFrames,
    fileID: fileID, filePath: filePath, line: line, column: column, makeOperator)
}

/// Tests a callback-based operator against marble diagrams on a test scheduler of any time
/// type, with the values each character stands for.
///
/// ```swift
/// try expectCallbackMarbles(
///   input: "ab--|",
///   expected: "-b--|",
///   frame: .seconds(1),
///   scheduler: OperationQueue.test,
///   values: ["a": 1, "b": 2],
///   expectedValues: ["b": 2]
/// ) { scheduler, output in
///   let debouncer = Debouncer(for: .seconds(1), scheduler: scheduler)
///   return { event in
///     switch event {
///     case .value(let value): debouncer.call { output.send(value) }
///     case .finished: output.finish()
///     case .failed(let error): output.fail(error)
///     }
///   }
/// }
/// ```
///
/// `scheduler` must be fresh. Otherwise as
/// ``expectCallbackMarbles(input:expected:frame:maxFrames:fileID:filePath:line:column:_:)``.
@discardableResult
public func expectCallbackMarbles<Input: Sendable, Output: Sendable & Equatable, Time, Options>(
  input: String,
  expected: String,
  frame: Time.Stride,
  scheduler: TestScheduler<Time, Options>,
  values: [Character: Input],
  expectedValues: [Character: Output],
  maxFrames: Int = 1_000,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ makeOperator: (TestScheduler<Time, Options>, MarbleOutput<Output>) ->
    @Sendable (MarbleEvent<Input>) -> Void
) throws -> MarbleTestResult<Output, Time.Stride> {
  let plan = try MarblePlan(
    inputs: [input], subscriptions: nil, expected: expected, cancelConsumer: nil, frame: frame,
    scheduler: scheduler, values: values, expectedValues: expectedValues, maxFrames: maxFrames)
  let recording = MarbleRecording<Output, Time.Stride>(offsetNow: plan.offsetNow)
  let output = MarbleOutput<Output>(record: recording.record)
  // The operator lives until the end of the test, as it would in the object that owns it.
  let handler = makeOperator(scheduler, output)
  plan.playInputs(into: handler)
  withExtendedLifetime(handler) {
    scheduler.advance(to: plan.endOfStrings)
    while !recording.isDone, let next = scheduler.nextDeadline, next <= plan.horizon {
      scheduler.advance(to: next)
    }
    recording.stop()
  }
  plan.closeInputs()
  return try plan.result(
    of: recording.events, fileID: fileID, filePath: filePath, line: line, column: column)
}

import Dispatch
import Schedulers
import Synchronization

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

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
/// The test runs inside ``withDeterministicExecution(scheduler:outsideWorkTimeout:fileID:filePath:line:column:_:)``,
/// so an operator's tasks have always run before time moves on. Each call uses its own test
/// scheduler and recorder: marble tests can run in parallel (their deterministic runs take
/// turns).
///
/// `maxFrames` is the last frame the test plays (or the end of the longer marble
/// string, if that is later): an operator that has not ended by then is cancelled, and its
/// output compared as it stands. Bounds a test of an operator
/// that never finishes (a timer, a bug) instead of letting it run forever.
///
/// - Throws: ``MarbleSyntaxError`` for a marble string that cannot be read, or the run's
///   ``DeterministicExecutionError``.
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

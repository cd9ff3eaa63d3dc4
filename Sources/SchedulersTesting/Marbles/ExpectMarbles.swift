import Dispatch
import Schedulers

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
/// the longest string, then on while the operator has work pending and has not ended, up to
/// `maxFrames`; the operator is then cancelled. A mismatch records one failure listing the
/// input, expected and actual timelines and each instant where they differ.
///
/// Two optional strings check what RxJS's `expectSubscriptions` and `expectObservable(_, unsub)`
/// check:
///
/// - `subscriptions`: when the operator started iterating the input (`^`) and when that
///   iteration ended (`!`: the input finished or failed, or the operator cancelled it or let
///   its iterator go), as in `"^---!"`; `(^!)` for both in one frame. A `^` without `!` means
///   the operator was still iterating when the test ended. Several iterations of one input
///   are written in one string: `"^-!^--!"`. The input is hot (``MarbleInput``).
/// - `cancelConsumer`: a string with one `!`, such as `"----!"`: the task consuming the
///   operator is cancelled at the end of that frame, after everything due in it (input events,
///   the operator's timers). The output recorded ends there (the cancellation's own end is
///   not part of it); the rest of the input timelines then plays to whatever is still
///   subscribed.
///
/// ```swift
/// try await expectMarbles(
///   input:          "-a--b--c---",
///   subscriptions:  "^-----!",
///   expected:       "-a--b-",
///   cancelConsumer: "------!",
///   frame: .milliseconds(100)
/// ) { input, scheduler in
///   input.delay(for: .zero, scheduler: scheduler)
/// }
/// ```
///
/// The test runs inside ``withDeterministicExecution(scheduler:virtualTime:outsideWorkTimeout:droppedTaskErrors:fileID:filePath:line:column:isolation:_:)``,
/// so an operator's tasks have always run before time moves on. Each call uses its own test
/// scheduler and recorder, so marble tests share no state; in a parallel test run their
/// deterministic runs take turns, one at a time.
///
/// `maxFrames` is the last frame the test plays (or the end of the longest marble
/// string, if that is later): an operator that has not ended by then is cancelled, and its
/// output compared as it stands. Bounds a test of an operator
/// that never finishes (a timer, a bug) instead of letting it run forever.
///
/// - Throws: ``MarbleSyntaxError`` for a marble string that cannot be read, or the run's
///   ``DeterministicExecutionError``.
@discardableResult
public func expectMarbles<Operated: AsyncSequence & Sendable>(
  input: String,
  subscriptions: String? = nil,
  expected: String,
  cancelConsumer: String? = nil,
  frame: DispatchQueue.SchedulerTimeType.Stride,
  maxFrames: Int = 1_000,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ operation:
    @escaping @Sendable (MarbleInput<String>, TestSchedulerOf<DispatchQueue>) ->
    Operated
) async throws -> MarbleResult<String> where Operated.Element == String {
  try await runMarbleTest(
    inputs: [input], subscriptions: subscriptions.map { [$0] }, expected: expected,
    cancelConsumer: cancelConsumer, frame: frame, scheduler: DispatchQueue.test,
    values: MarbleTimeline<String>.characterValues(of: input),
    expectedValues: MarbleTimeline<String>.characterValues(of: expected),
    maxFrames: maxFrames, fileID: fileID, filePath: filePath, line: line, column: column
  ) { inputs, scheduler in operation(inputs[0], scheduler) }
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
/// See ``expectMarbles(input:subscriptions:expected:cancelConsumer:frame:maxFrames:fileID:filePath:line:column:_:)``.
@discardableResult
public func expectMarbles<
  Input: Sendable, Output: Sendable & Equatable, Operated: AsyncSequence & Sendable
>(
  input: String,
  subscriptions: String? = nil,
  expected: String,
  cancelConsumer: String? = nil,
  frame: DispatchQueue.SchedulerTimeType.Stride,
  values: [Character: Input],
  expectedValues: [Character: Output],
  maxFrames: Int = 1_000,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ operation: @escaping @Sendable (MarbleInput<Input>, TestSchedulerOf<DispatchQueue>) -> Operated
) async throws -> MarbleResult<Output> where Operated.Element == Output {
  try await runMarbleTest(
    inputs: [input], subscriptions: subscriptions.map { [$0] }, expected: expected,
    cancelConsumer: cancelConsumer, frame: frame, scheduler: DispatchQueue.test, values: values,
    expectedValues: expectedValues, maxFrames: maxFrames, fileID: fileID, filePath: filePath,
    line: line, column: column
  ) { inputs, scheduler in operation(inputs[0], scheduler) }
}

/// Tests an operator of several inputs (a race, a merge, a `combineLatest`, your own) against
/// marble diagrams: one timeline per input, played on the same test scheduler.
///
/// ```swift
/// try await expectMarbles(
///   inputs:        ["-a---b-|", "--c-d---|"],
///   subscriptions: ["^------!", "^-------!"],
///   expected:      "-ac-db-|",
///   frame: .milliseconds(100)
/// ) { inputs, _ in
///   interleaved(inputs[0], inputs[1])  // your merging operator
/// }
/// ```
///
/// Every character stands for the one-character string it is. `subscriptions`, when given, has
/// one string per input. Otherwise as
/// ``expectMarbles(input:subscriptions:expected:cancelConsumer:frame:maxFrames:fileID:filePath:line:column:_:)``.
@discardableResult
public func expectMarbles<Operated: AsyncSequence & Sendable>(
  inputs: [String],
  subscriptions: [String]? = nil,
  expected: String,
  cancelConsumer: String? = nil,
  frame: DispatchQueue.SchedulerTimeType.Stride,
  maxFrames: Int = 1_000,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ operation:
    @escaping @Sendable ([MarbleInput<String>], TestSchedulerOf<DispatchQueue>) -> Operated
) async throws -> MarbleResult<String> where Operated.Element == String {
  try await runMarbleTest(
    inputs: inputs, subscriptions: subscriptions, expected: expected,
    cancelConsumer: cancelConsumer, frame: frame, scheduler: DispatchQueue.test,
    values: MarbleTimeline<String>.characterValues(of: inputs),
    expectedValues: MarbleTimeline<String>.characterValues(of: expected),
    maxFrames: maxFrames, fileID: fileID, filePath: filePath, line: line, column: column,
    operation)
}

/// Tests an operator against marble diagrams on a test scheduler of any time type (a
/// `RunLoop`'s, an `OperationQueue`'s, your own), with several inputs and the values each
/// character stands for. The most general form; the others call it.
///
/// ```swift
/// try await expectMarbles(
///   inputs: ["a-b-|"],
///   expected: "-a-b|",
///   frame: .seconds(1),
///   scheduler: RunLoop.test,
///   values: ["a": "a", "b": "b"],
///   expectedValues: ["a": "a", "b": "b"]
/// ) { inputs, scheduler in
///   inputs[0].delay(for: .seconds(1), scheduler: scheduler)
/// }
/// ```
///
/// `scheduler` must be fresh (nothing scheduled, nothing else using it): the test plays its
/// timelines from the scheduler's `now`. Otherwise as
/// ``expectMarbles(input:subscriptions:expected:cancelConsumer:frame:maxFrames:fileID:filePath:line:column:_:)``.
@discardableResult
public func expectMarbles<
  Input: Sendable, Output: Sendable & Equatable, Operated: AsyncSequence & Sendable, Time, Options
>(
  inputs: [String],
  subscriptions: [String]? = nil,
  expected: String,
  cancelConsumer: String? = nil,
  frame: Time.Stride,
  scheduler: TestScheduler<Time, Options>,
  values: [Character: Input],
  expectedValues: [Character: Output],
  maxFrames: Int = 1_000,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ operation:
    @escaping @Sendable ([MarbleInput<Input>], TestScheduler<Time, Options>) -> Operated
) async throws -> MarbleTestResult<Output, Time.Stride> where Operated.Element == Output {
  try await runMarbleTest(
    inputs: inputs, subscriptions: subscriptions, expected: expected,
    cancelConsumer: cancelConsumer, frame: frame, scheduler: scheduler, values: values,
    expectedValues: expectedValues, maxFrames: maxFrames, fileID: fileID, filePath: filePath,
    line: line, column: column, operation)
}

/// The one implementation of every `expectMarbles`.
func runMarbleTest<
  Input: Sendable, Output: Sendable & Equatable, Operated: AsyncSequence & Sendable, Time, Options
>(
  inputs: [String], subscriptions: [String]?, expected: String, cancelConsumer: String?,
  frame: Time.Stride, scheduler: TestScheduler<Time, Options>, values: [Character: Input],
  expectedValues: [Character: Output], maxFrames: Int,
  fileID: StaticString, filePath: StaticString, line: UInt, column: UInt,
  _ operation:
    @escaping @Sendable ([MarbleInput<Input>], TestScheduler<Time, Options>) -> Operated
) async throws -> MarbleTestResult<Output, Time.Stride> where Operated.Element == Output {
  let plan = try MarblePlan(
    inputs: inputs, subscriptions: subscriptions, expected: expected,
    cancelConsumer: cancelConsumer, frame: frame, scheduler: scheduler, values: values,
    expectedValues: expectedValues, maxFrames: maxFrames)
  let recording = MarbleRecording<Output, Time.Stride>(offsetNow: plan.offsetNow)
  try await withDeterministicExecution(
    scheduler: scheduler, fileID: fileID, filePath: filePath, line: line, column: column
  ) {
    plan.playInputs()
    let inputs = plan.marbleInputs
    let consumer = Task {
      var iterator = operation(inputs, scheduler).makeAsyncIterator()
      do {
        while let value = try await nextValue(&iterator) {
          recording.record(.value(value))
        }
        recording.record(.finished)
      } catch {
        recording.record(.failed(error))
      }
    }
    await scheduler.advance()
    if let cancelInstant = plan.cancelInstant {
      // Everything due in the cancellation's frame happens, then the consumer is cancelled,
      // and the operator's reaction (cancelling its upstream) settles in that instant.
      await scheduler.advance(to: cancelInstant)
      recording.stop()
      consumer.cancel()
      await scheduler.advance()
      // The rest of the input timelines plays, to no one (or to what the operator left
      // subscribed, which the subscription marbles then show).
      if cancelInstant < plan.endOfStrings { await scheduler.advance(to: plan.endOfStrings) }
    } else {
      await scheduler.advance(to: plan.endOfStrings)
      while !recording.isDone, let next = scheduler.nextDeadline, next <= plan.horizon {
        await scheduler.advance(to: next)
      }
    }
    recording.stop()
    plan.closeInputs()
    consumer.cancel()
    await consumer.value
  }
  return try plan.result(
    of: recording.events, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The iterator's next value, asked without an isolation where the OS has the requirement for
/// it (the 18 generation of Apple platforms), as the operators under test are asked in apps.
private func nextValue<Iterator: AsyncIteratorProtocol>(_ iterator: inout Iterator) async throws
  -> Iterator.Element?
{
  if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
    return try await iterator.next(isolation: nil)
  }
  return try await iterator.next()
}

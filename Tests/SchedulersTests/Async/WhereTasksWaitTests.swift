import Schedulers
@_spi(Experimental) import SchedulersTesting
import Synchronization
import Testing

@testable import SchedulersDeterministic

/// A mailbox whose reader registers and is never woken: the message it waits for went
/// nowhere. The wait is on a continuation that ignores cancellation, so the body cannot
/// unwind, and the report must say who waits on what.
actor ForgetfulInbox {
  private var waiter: CheckedContinuation<String, Never>?
  func next() async -> String {
    await withCheckedContinuation { waiter = $0 }
  }
  /// For the test's end only: wakes the reader, so that the tasks the run left behind end
  /// (the leak sanitizer's suite would report them otherwise).
  func wakeTheReader() {
    waiter?.resume(returning: "late")
    waiter = nil
  }
}

/// What a deadlock's report says of the tasks that wait: which task, in which function, called
/// from where, and the continuation nobody can resume any more.
@Suite("A deadlock says where the run's tasks wait")
struct WhereTasksWaitTests {
  /// Where a task's frames are read (`TaskHeader.resumePoints`): Linux, where it is tested,
  /// and not on the main-queue backend, whose main-actor jobs bypass the run. (Not asked of
  /// the probe: a runtime laid out otherwise should fail this test, not skip it.)
  static var framesAreReadHere: Bool {
    #if os(Linux)
      DeterministicExecution.backend != .globalHookAndMainQueue
    #else
      false
    #endif
  }

  static func readTheInbox(_ inbox: ForgetfulInbox) async -> String {
    let reader = Task { await inbox.next() }
    return await reader.value
  }

  /// The body awaits a reader task, which waits on a continuation its actor stored and nobody
  /// resumes: both are named, the reader with the function that made the continuation.
  @Test(.deterministicExecutionIsAvailable, .enabled(if: framesAreReadHere))
  func aContinuationNobodyCanResumeIsNamedWithTheFunctionThatMadeIt() async throws {
    let thrown = Mutex<String?>(nil)
    let inbox = ForgetfulInbox()
    try await withKnownIssue {
      do {
        _ = try await withDeterministicExecution { await Self.readTheInbox(inbox) }
      } catch let error as DeterministicExecutionError {
        thrown.withLock { $0 = error.description }
      }
    } matching: { issue in
      issue.description.contains("did not finish when cancelled")
    }
    await inbox.wakeTheReader()
    let report = try #require(thrown.withLock { $0 })
    #expect(
      report.contains(
        "Where the run's tasks wait: the body's task waits in Task.value, called from "
          + "SchedulersTests.WhereTasksWaitTests.readTheInbox(_:) ← closure 1 in closure 1 in "
          + "SchedulersTests.WhereTasksWaitTests."
          + "aContinuationNobodyCanResumeIsNamedWithTheFunctionThatMadeIt(); task "),
      "\(report)")
    #expect(
      report.contains(
        " waits on a continuation that SchedulersTests.ForgetfulInbox.next() made "
          + "(withCheckedContinuation), which nothing in the run can resume any more, called "
          + "from closure 1 in SchedulersTests.WhereTasksWaitTests.readTheInbox(_:)."),
      "\(report)")
  }

  /// A demangled name reads as the function a reader would look for. (`\u{23}` is the number
  /// sign the demangler puts before a closure's number.)
  @Test(arguments: [
    (
      "(2) await resume partial function for static MyApp.Inbox.next(timeout: Swift.Duration) async throws -> Swift.String",
      "MyApp.Inbox.next(timeout:)"
    ),
    (
      "closure \u{23}1 @Sendable () async -> Swift.String in closure \u{23}2 () async throws -> () in static MyApp.Tests.reads() async throws -> ()",
      "closure 1 in closure 2 in MyApp.Tests.reads()"
    ),
    ("(extension in Swift):Swift.Task< where B == Swift.Never>.value.getter : A", "Task.value"),
    (
      "Swift.withCheckedContinuation<A>(isolation: isolated Swift.Optional<Swift.Actor>, function: Swift.String, _: (Swift.CheckedContinuation<A, Swift.Never>) -> ()) async -> A",
      "withCheckedContinuation(isolation:function:_:)"
    ),
    (
      "MyApp.receive<A where A: MyApp.Mailbox>(A.Type, Swift.Int) async -> Swift.Int",
      "MyApp.receive(_:_:)"
    ),
    ("MyApp.Model.load() async throws(MyApp.LoadError) -> ()", "MyApp.Model.load()"),
    (
      "Swift.withTaskCancellationHandler<A>(operation: () async throws -> A, onCancel: @Sendable () -> (), isolation: isolated Swift.Optional<Swift.Actor>) async throws -> A",
      "withTaskCancellationHandler(operation:onCancel:isolation:)"
    ),
  ])
  func aDemangledNameReadsAsTheFunction(demangled: String, readable: String) {
    #expect(FunctionNames.readable(demangled) == readable)
  }
}

import Schedulers
@_spi(Experimental) import SchedulersTesting
import Testing

/// A run reports the error of a task of its own that ended by throwing when nothing held the
/// task's handle any more (no one could ever await it), as a failure of the test.
@Suite("Errors of tasks nobody can await")
struct DroppedTaskErrorsTests {
  struct SaveFailed: Error, Equatable { var draft: String }
  struct SyncFailed: Error {}

  /// The shape users write: a button's action starts a task and drops its handle.
  @MainActor final class DraftModel {
    var saved: [String] = []
    func saveButtonTapped(_ draft: String) {
      Task { try await self.save(draft) }
    }
    func save(_ draft: String) async throws {
      await Task.yield()
      throw SaveFailed(draft: draft)
    }
  }

  @Test(.seesMainActorTasksEnd)
  func aTaskWhoseHandleWasDroppedFailsTheTestNamingItsError() async throws {
    try await withKnownIssue {
      try await withDeterministicExecution { @MainActor in
        DraftModel().saveButtonTapped("Hello")
      }
    } matching: { issue in
      issue.description.contains(
        "ended by throwing SchedulersTests.DroppedTaskErrorsTests.SaveFailed(draft: \"Hello\")")
        && issue.description.contains("nothing held its handle")
        && issue.description.contains("droppedTaskErrors: .ignored")
        && issue.sourceLocation?.fileName == "DroppedTaskErrorsTests.swift"
    }
  }

  /// Where main-actor jobs bypass the run, a main-actor task's end is not seen: the documented
  /// difference of that backend, and nothing worse (no false report, no crash).
  @Test(.enabled(if: DeterministicExecution.backend == .globalHookAndMainQueue))
  func withTheMainQueueBackendAMainActorTasksErrorGoesUnseen() async throws {
    try await withDeterministicExecution { @MainActor in
      DraftModel().saveButtonTapped("Hello")
    }
  }

  @Test func aDetachedTaskOfTheRunIsReportedToo() async throws {
    try await withKnownIssue {
      try await withDeterministicExecution {
        Task.detached { throw SyncFailed() }
        await DeterministicExecution.idle()
      }
    } matching: { issue in
      issue.description.contains("ended by throwing")
        && issue.description.contains("SyncFailed")
    }
  }

  @Test func everyDroppedErrorIsNamedInOneFailure() async throws {
    try await withKnownIssue {
      try await withDeterministicExecution {
        Task { throw SaveFailed(draft: "one") }
        Task { throw SaveFailed(draft: "two") }
      }
    } matching: { issue in
      guard let one = issue.description.range(of: "\"one\""),
        let two = issue.description.range(of: "\"two\"")
      else { return false }
      return issue.description.contains("2 tasks of the deterministic run ended by throwing")
        && one.lowerBound < two.lowerBound
    }
  }

  /// A task that calls an actor can end inside the actor's turn, a job that is not the task's
  /// own: the run still sees it end, and lists the tasks in the order they were made.
  @Test func tasksThatEndInAnActorsTurnAreSeen() async throws {
    // No yield inside: a `Task {}`'s yield inside an actor leaves the run with some backends
    // (`YieldInActorTests`). Each call is an actor's turn of its own in a run anyway.
    actor Outbox {
      func send(_ message: String) async throws {
        throw SaveFailed(draft: message)
      }
    }
    try await withKnownIssue {
      try await withDeterministicExecution {
        let outbox = Outbox()
        for message in ["first", "second", "third"] {
          Task { try await outbox.send(message) }
        }
      }
    } matching: { issue in
      let text = issue.description
      guard let first = text.range(of: "\"first\""), let second = text.range(of: "\"second\""),
        let third = text.range(of: "\"third\"")
      else { return false }
      return text.contains("3 tasks of the deterministic run ended by throwing")
        && first.lowerBound < second.lowerBound && second.lowerBound < third.lowerBound
    }
  }

  /// The run's other outcomes stay as they were: the body's value comes back.
  @Test func theBodysResultStillComesBack() async throws {
    try await withKnownIssue {
      let result = try await withDeterministicExecution { () async throws -> Int in
        Task { throw SyncFailed() }
        return 42
      }
      #expect(result == 42)
    } matching: {
      $0.description.contains("SyncFailed")
    }
  }

  /// The error every test of what is not reported drops on purpose, beside what it checks:
  /// the one failure expected names it alone ("A task", not "2 tasks"), so the test fails
  /// both where the run reports too much and where it reports nothing at all.
  struct Control: Error {}

  /// Runs `body` in a run that also drops `Control`, and expects exactly that one report.
  func onlyTheControlIsReported(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async throws -> Void
  ) async throws {
    try await withKnownIssue(sourceLocation: sourceLocation) {
      try await withDeterministicExecution {
        try await body()
        Task { throw Control() }
      }
    } matching: { issue in
      issue.description.contains(
        "A task of the deterministic run ended by throwing "
          + "SchedulersTests.DroppedTaskErrorsTests.Control(), and nothing held its handle")
    }
  }

  @Test func anAwaitedErrorIsNotReported() async throws {
    try await onlyTheControlIsReported {
      let task = Task { throw SaveFailed(draft: "awaited") }
      await #expect(throws: SaveFailed(draft: "awaited")) { try await task.value }
    }
  }

  /// A handle still held when the task ends could be awaited later: the run cannot tell that
  /// it never will be, and says nothing.
  @Test func anErrorWhoseHandleIsStillHeldIsNotReported() async throws {
    @MainActor final class Holder {
      var task: Task<Void, any Error>?
    }
    try await onlyTheControlIsReported { @MainActor in
      let holder = Holder()
      holder.task = Task { throw SyncFailed() }
      await DeterministicExecution.idle()
      await #expect(throws: SyncFailed.self) { try await holder.task?.value }
    }
  }

  @Test func aCancelledTaskIsNotReported() async throws {
    try await onlyTheControlIsReported {
      Task { throw CancellationError() }
      Task {
        withUnsafeCurrentTask { $0?.cancel() }
        try Task.checkCancellation()
      }
    }
  }

  @Test func aTaskThatReturnsIsNotReported() async throws {
    try await onlyTheControlIsReported {
      Task { () throws -> Int in 1 }
      Task { try await Task.sleep(for: .zero) }
    }
  }

  /// Child tasks hand their errors to their group or `async let`: not the run's to report.
  @Test func childTasksAreNotReported() async throws {
    try await onlyTheControlIsReported {
      await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { throw SyncFailed() }
        // Not awaited: the group discards it when the body returns, as Swift specifies.
      }
    }
  }

  @Test func theOptOutLetsThemGo() async throws {
    let body: @Sendable () async throws -> Void = { Task { throw SyncFailed() } }
    // Without it, the body fails the test; with it, on every entry point, it does not.
    try await withKnownIssue {
      try await withDeterministicExecution(body)
    } matching: {
      $0.description.contains("SyncFailed")
    }
    try await withDeterministicExecution(droppedTaskErrors: .ignored, body)
    await exploreSchedules(
      .exploring(schedules: 20), droppedTaskErrors: .ignored, body)
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler, droppedTaskErrors: .ignored) {
      () async throws -> Void in
      Task { throw SyncFailed() }
    }
  }

  @Test func theProcessCanTellHowATaskEnded() async throws {
    try await withDeterministicExecution {}
    #expect(DeterministicExecution.droppedTaskErrorsUnseenReason == nil)
  }
}

/// The trait records them at the test's declaration. Its scope is entered by hand, so that
/// the known issue can wrap it.
/// "Errors nobody can await" in "Testing Async Code Deterministically": the example, word for
/// word, fails the test as the article says.
@Suite("Errors nobody can await: the article's example")
struct DroppedTaskErrorsArticleTests {
  struct SaveFailed: Error {}

  @MainActor final class DraftModel {
    func saveButtonTapped() {
      Task { try await self.save() }  // the handle is dropped, and with it the error
    }
    func save() async throws { throw SaveFailed() }
  }

  @Test(.seesMainActorTasksEnd)
  func savingReportsItsFailure() async throws {
    try await withKnownIssue {
      try await withDeterministicExecution { @MainActor in
        DraftModel().saveButtonTapped()
      }
    } matching: { issue in
      issue.description.contains(
        """
        A task of the deterministic run ended by throwing \
        SchedulersTests.DroppedTaskErrorsArticleTests.SaveFailed(), and nothing held its \
        handle, so no one could await it: Swift drops such an error without a word. Await \
        the task's value, catch the error inside the task, or pass droppedTaskErrors: \
        .ignored if dropping it is meant.
        """)
    }
  }
}

@Suite("Errors of tasks nobody can await, under the trait")
struct DroppedTaskErrorsTraitTests {
  struct Offline: Error {}

  @Test func theTraitReportsThemAtTheTestsDeclaration() async throws {
    let test = try #require(Test.current)
    let trait: DeterministicExecutionTrait = .deterministicExecution
    try await withKnownIssue {
      try await trait.provideScope(for: test, testCase: Test.Case.current) {
        () async throws -> Void in
        Task { throw Offline() }
      }
    } matching: { issue in
      issue.description.contains("ended by throwing")
        && issue.description.contains("Offline")
        && issue.sourceLocation == test.sourceLocation
    }
  }

  @Test func theTraitsOptOutLetsThemGo() async throws {
    let test = try #require(Test.current)
    let body: @Sendable () async throws -> Void = { Task { throw Offline() } }
    let reporting: DeterministicExecutionTrait = .deterministicExecution(.autoAdvance)
    try await withKnownIssue {
      try await reporting.provideScope(for: test, testCase: Test.Case.current, performing: body)
    } matching: {
      $0.description.contains("Offline")
    }
    #expect(reporting.droppedTaskErrors == .reported)
    let ignoring = reporting.droppedTaskErrors(.ignored)
    #expect(ignoring.virtualTime == .autoAdvance)
    try await ignoring.provideScope(for: test, testCase: Test.Case.current, performing: body)
  }

  /// As users write it, run as a test: its body only starts a task that throws, which the
  /// opt-out lets go. (It once reported a deadlock, in 1 of 16 full-suite runs, with runs side
  /// by side and the driver on the main queue, two opt-in modes that are gone.)
  @Test(.deterministicExecution.droppedTaskErrors(.ignored))
  func theOptOutReadsWellOnATest() async {
    Task { throw Offline() }
  }

  /// The modifier chains where a test takes its traits, and sets what it says.
  @Test func theOptOutIsOnTheTraitsValue() {
    let traits: [any TestTrait] = [.deterministicExecution.droppedTaskErrors(.ignored)]
    #expect((traits.first as? DeterministicExecutionTrait)?.droppedTaskErrors == .ignored)
  }
}

import Schedulers
import Testing

/// A trait that runs each test under deterministic execution.
///
/// Equivalent to wrapping the test's body in
/// `withDeterministicExecution(virtualTime:outsideWorkTimeout:droppedTaskErrors:fileID:filePath:line:column:isolation:_:)`; on a
/// suite, it applies to every test in it:
///
/// ```swift
/// @Test(.deterministicExecution) @MainActor
/// func countdown() async {
///   let scheduler = DispatchQueue.test
///   let model = ChatModel(scheduler: scheduler.eraseToAnyScheduler())
///   model.sendButtonTapped("Hello")
///   await scheduler.advance()
///   #expect(model.countdown == 3)
/// }
/// ```
///
/// With ``Testing/Trait/deterministicExecution``, plain `Task.sleep` inside such a test sleeps
/// in real time (as outside work); to put it on a virtual clock, use
/// ``Testing/Trait/deterministicExecution(_:)-(DeterministicExecution.VirtualTime)`` with `.autoAdvance`, or
/// `withDeterministicExecution(scheduler:...)` with the test's scheduler. Failures of the run
/// are recorded at the test's declaration: sleepers still pending on the run's clock when the
/// body returns, errors of the run's tasks that nobody could await
/// (``DeterministicExecution/DroppedTaskErrors``, unless ``droppedTaskErrors(_:)`` says
/// `.ignored`), and a deadlock (the body is then cancelled). If the body does not finish even
/// when cancelled, the process stops with a message saying so: the body is stuck, and the
/// trait cannot return without it.
public struct DeterministicExecutionTrait: TestTrait, SuiteTrait, TestScoping {
  /// How virtual time moves in each test's run: ``DeterministicExecution/VirtualTime/manual``
  /// for ``Testing/Trait/deterministicExecution``, or as given to
  /// ``Testing/Trait/deterministicExecution(_:)-(DeterministicExecution.VirtualTime)``.
  public var virtualTime: DeterministicExecution.VirtualTime = .manual

  /// Whether each test runs under many schedules instead of one, and how
  /// (``DeterministicExecution/Exploration``); `nil`: one run, first in, first out.
  ///
  /// > Note: Which schedule a seed names may change in a minor release before 1.0, as
  /// > ``DeterministicExecution/Exploration`` says.
  public var exploration: DeterministicExecution.Exploration?

  /// What the run does with the error of a task that ends by throwing when nothing holds its
  /// handle (``DeterministicExecution/DroppedTaskErrors``): ``DeterministicExecution/DroppedTaskErrors/reported``
  /// unless ``droppedTaskErrors(_:)`` says otherwise.
  public var droppedTaskErrors: DeterministicExecution.DroppedTaskErrors = .reported

  /// Whether work the body leaves pending when it returns fails the test (a note on standard
  /// error otherwise): a suite explored unchanged (`SchedulersSuiteExploration`) has tests
  /// that leave a task behind on purpose.
  package var pendingWorkFails = true

  /// The same trait, with dropped task errors handled as `policy` says.
  ///
  /// ```swift
  /// @Test(.deterministicExecution.droppedTaskErrors(.ignored))
  /// func cleanupMayFailUnseen() async {
  ///   Task { throw AlreadyGone() }  // meant: nobody needs to know
  /// }
  /// ```
  public func droppedTaskErrors(_ policy: DeterministicExecution.DroppedTaskErrors) -> Self {
    var trait = self
    trait.droppedTaskErrors = policy
    return trait
  }

  /// Applies to every test of a suite it is attached to.
  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else { return try await function() }
    try await scope(testName: test.name, declaration: test.sourceLocation, function)
  }

  /// The scope of one test case: what `provideScope` does for a test named `testName`, declared
  /// at `declaration` (a test of its own calls it directly, in an exit test's child, where no
  /// `Test` runs).
  package func scope(
    testName: String, declaration: SourceLocation,
    _ function: @Sendable () async throws -> Void
  ) async throws {
    // Every failure of the run is recorded at the test's own declaration, the line the user
    // wrote the trait on: the work left pending when the body returns (the run returns then,
    // so it hands the report over), and what the run throws.
    if let exploration {
      await withoutActuallyEscaping(function) { function in
        let runOnce = UncheckedSendableFunction(function)
        await explore(exploration, reportingAt: declaration) {
          try await runUnderTheTrait(testName: testName, declaration: declaration, runOnce.body)
        }
      }
      return
    }
    try await runUnderTheTrait(testName: testName, declaration: declaration, function)
  }

  /// One run of the test's body, its failures recorded at the test's declaration.
  private func runUnderTheTrait(
    testName: String, declaration: SourceLocation,
    _ function: @Sendable () async throws -> Void
  ) async throws {
    try await withoutActuallyEscaping(function) { function in
      do {
        try await withDeterministicExecutionReportedByCaller(
          virtualTime: virtualTime, droppedTaskErrors: droppedTaskErrors,
          recordLeftovers: { [pendingWorkFails] report in
            guard pendingWorkFails || !report.hasPrefix(pendingWorkReportOpening) else {
              return TestFailure.writeToStandardError("\(testName): \(report)\n")
            }
            Issue.record(Comment(rawValue: report), sourceLocation: declaration)
          }
        ) {
          try await function()
        }
      } catch let error as DeterministicExecutionError {
        guard !error.bodyIsStuck else {
          // The body is still running the test's function, which Swift Testing lent without
          // letting it escape: the scope cannot return while the body holds it. The report
          // goes out with the process, with an exploration's report line (which schedule, its
          // seed, how to replay it) and the last jobs the schedule ran.
          var schedule = ""
          if let line = ExplorationHook.crashReport?.line, let chooser = ExplorationHook.chooser {
            schedule = "\n\(line) The last jobs it ran: \(chooser.describeTrace(limit: 12))"
          }
          preconditionFailure(
            "\(testName): \(error.description) The test's body is stuck, so the test cannot end."
              + schedule)
        }
        Issue.record(Comment(rawValue: error.description), sourceLocation: declaration)
      }
    }
  }
}

extension Trait where Self == DeterministicExecutionTrait {
  /// Runs the test (or every test of the suite) under deterministic execution.
  public static var deterministicExecution: Self { Self() }

  /// Runs each test in a deterministic run whose virtual time moves as `virtualTime` says:
  /// with `.autoAdvance`, code that sleeps runs unchanged, in no real time, on a test
  /// scheduler of the run's own (see ``DeterministicExecution/VirtualTime``).
  ///
  /// ```swift
  /// @Test(.deterministicExecution(.autoAdvance)) @MainActor
  /// func countdownReachesZero() async {
  ///   let model = CountdownModel()
  ///   await model.countdown()  // three plain one-second Task.sleeps, no real time
  ///   #expect(model.secondsLeft == 0)
  /// }
  /// ```
  public static func deterministicExecution(_ virtualTime: DeterministicExecution.VirtualTime)
    -> Self
  {
    Self(virtualTime: virtualTime)
  }

  /// Runs each test under many legal schedules, until one fails (see
  /// ``DeterministicExecution/Exploration``), with virtual time moved by hand, as
  /// ``Testing/Trait/deterministicExecution`` does.
  ///
  /// ```swift
  /// @Test(.deterministicExecution(.exploring(schedules: 500)))
  /// func twoWithdrawalsNeverOverdraw() async {
  ///   let account = Account(balance: 100)
  ///   async let first: Void = account.withdraw(80)
  ///   async let second: Void = account.withdraw(80)
  ///   _ = await (first, second)
  ///   #expect(await account.balance >= 0)
  /// }
  /// ```
  ///
  /// > Note: Which schedule a seed names may change in a minor release before 1.0, as
  /// > ``DeterministicExecution/Exploration`` says.
  public static func deterministicExecution(_ exploration: DeterministicExecution.Exploration)
    -> Self
  {
    Self(virtualTime: .manual, exploration: exploration)
  }

  /// Runs each test under many legal schedules, until one fails (see
  /// ``DeterministicExecution/Exploration``), with virtual time moving as `virtualTime` says.
  ///
  /// ```swift
  /// @Test(.deterministicExecution(.exploring(schedules: 500)))
  /// func twoWithdrawalsNeverOverdraw() async {
  ///   let account = Account(balance: 100)
  ///   async let first: Void = account.withdraw(80)
  ///   async let second: Void = account.withdraw(80)
  ///   _ = await (first, second)
  ///   #expect(await account.balance >= 0)
  /// }
  ///
  /// @Test(.deterministicExecution(.autoAdvance, .exploring(schedules: 200)))
  /// func theSpinnerStopsWhateverComesFirst() async throws { ... }
  /// ```
  ///
  /// > Note: Which schedule a seed names may change in a minor release before 1.0, as
  /// > ``DeterministicExecution/Exploration`` says.
  public static func deterministicExecution(
    _ virtualTime: DeterministicExecution.VirtualTime = .manual,
    _ exploration: DeterministicExecution.Exploration
  ) -> Self {
    Self(virtualTime: virtualTime, exploration: exploration)
  }
}

/// The test's body, which the trait runs once per schedule: Swift Testing hands it over as a
/// non-escaping function, and it is called only while the trait's scope lasts.
private struct UncheckedSendableFunction: @unchecked Sendable {
  // `@unchecked Sendable`: the body is Swift Testing's, `@Sendable` itself; only its escaping
  // is unchecked, and every call ends before `provideScope` returns.
  let body: @Sendable () async throws -> Void
  init(_ body: @escaping @Sendable () async throws -> Void) { self.body = body }
}

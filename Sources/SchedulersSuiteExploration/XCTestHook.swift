// XCTest: every async test method the process runs is explored.
//
// On Linux, SwiftPM's generated test list wraps each async test method in XCTest's
// `asyncTest(_:)`, which runs it in a task and waits for it on the main thread. This file
// defines that function in the test executable, which the static linker binds the generated
// list's calls to ahead of libXCTest's. Unset, SCHEDULERS_EXPLORE_SUITE changes nothing: the
// method runs as libXCTest's `asyncTest` runs it. Set, the method runs under deterministic
// execution first in, first out, then under the exploration's schedules, until one fails.
//
// XCTest has no way to hold a failure back, as Swift Testing's known issues do: a schedule's
// failures are recorded as they happen, and the exploration then says which schedule it was.
#if os(Linux)
  import Schedulers
  import SchedulersTesting
  import Synchronization
  import XCTest

  @_silgen_name("$s6XCTest9asyncTestyyyKcxcyyYaKcxcAA0A4CaseCRbzlF")
  func asyncTestExploringIt<T: XCTestCase>(
    _ makeTest: @escaping (T) -> () async throws -> Void
  ) -> (T) -> () throws -> Void {
    return { testCase in
      let method = UncheckedSendable(makeTest(testCase))
      let run: @Sendable () async throws -> Void = { try await method.value() }
      return {
        guard let exploration = SuiteExploration.exploration else {
          return try waitOnTheMainThread(run)
        }
        let start = ContinuousClock.now
        let findings = UncheckedSendable(testCase)
        let failure = try waitOnTheMainThread {
          await XCTestExploration(testCase: findings.value, exploration: exploration)
            .explore(run)
        }
        if let failure { XCTFail(failure) }
        SuiteExploration.reportExplored(
          testCase.name, seconds: SuiteExploration.seconds(since: start), exploration)
      }
    }
  }

  /// libXCTest's way of running an async test method: in a task, while the main thread waits
  /// for it (and runs its run loop, so that the main actor's jobs run).
  private func waitOnTheMainThread<R: Sendable>(_ body: @escaping @Sendable () async throws -> R)
    throws -> R
  {
    let done = XCTestExpectation(description: "The async test method returned")
    let result = Mutex<Result<R, any Error>?>(nil)
    Task {
      defer { done.fulfill() }
      do {
        let value = try await body()
        result.withLock { $0 = .success(value) }
      } catch {
        result.withLock { $0 = .failure(error) }
      }
    }
    // libXCTest's own limit for an async test: thirty days.
    _ = XCTWaiter.wait(for: [done], timeout: 60 * 60 * 24 * 30)
    guard let outcome = result.withLock({ $0 }) else {
      throw CancellationError()
    }
    return try outcome.get()
  }

  /// A value handed to the task that runs the method: XCTest's own types are not `Sendable`,
  /// and the main thread only waits while the task uses them.
  private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }

  /// One test method's exploration: the first-in first-out run, the same order with each hop
  /// between actors a job of its own (schedule 1, seed 0), then the seeded schedules.
  private struct XCTestExploration: @unchecked Sendable {
    let testCase: XCTestCase
    var exploration: DeterministicExecution.Exploration

    init(testCase: XCTestCase, exploration: DeterministicExecution.Exploration) {
      self.testCase = testCase
      self.exploration = explorationFromEnvironment(exploration)
    }

    /// The failure to record once the exploration is over, or `nil` when every schedule passed.
    func explore(_ method: @escaping @Sendable () async throws -> Void) async -> String? {
      await ExplorationHook.$crashReport.withValue(PendingCrashReport()) {
        ExplorationCrashReport.arm()
        return await exploreEachSchedule(method)
      }
    }

    private func exploreEachSchedule(_ method: @escaping @Sendable () async throws -> Void) async
      -> String?
    {
      let baseline = exploration.firstInFirstOutSchedule()
      ExplorationHook.crashReport?.set(
        "The process is stopping in \(testCase.name)'s first-in first-out deterministic run, "
          + "before any exploring: no seed is needed to replay it.")
      if let failure = await run(method, baseline) {
        return """
          The test fails under deterministic execution before any exploring, in the first-in \
          first-out order (\(failure)); no seed is needed to replay it. What ran: \
          \(baseline.describeTrace())
          """
      }
      // Run by every exploration, a replay's too: its length is PCT's span, which every seeded
      // schedule depends on.
      let hopOrder = exploration.hopsAsJobsSchedule()
      if let failure = await run(method, hopOrder, seed: 0, position: "schedule 1") {
        return report(
          failure, position: "schedule 1 of \(exploration.schedules)", seed: 0, hopOrder)
      }
      if exploration.replay == 0 { return nil }
      let expectedSteps = hopOrder.stepsFromFirstChoice
      if let seed = exploration.replay {
        let chooser = exploration.seededSchedule(seed, expectedSteps: expectedSteps)
        guard
          let failure = await run(method, chooser, seed: seed, position: "the replayed schedule")
        else { return nil }
        return report(failure, position: "the replayed schedule", seed: seed, chooser)
      }
      for (index, seed) in exploration.seededSchedules(in: explorationShard()) {
        let chooser = exploration.seededSchedule(seed, expectedSteps: expectedSteps)
        let position = "schedule \(index + 1) of \(exploration.schedules)"
        if let failure = await run(method, chooser, seed: seed, position: position) {
          return report(failure, position: position, seed: seed, chooser)
        }
      }
      return nil
    }

    private func report(
      _ failure: String, position: String, seed: UInt64, _ chooser: ScheduleChooser
    )
      -> String
    {
      """
      Exploring schedules found a failing one: \(position), \(exploration.strategy), seed \
      \(hexadecimal(seed)) (\(failure)). Replay it with \(SuiteExploration.variable)=\
      \(exploration.schedules) SCHEDULERS_EXPLORATION_REPLAY=\(hexadecimal(seed)) and this test \
      alone. What ran: \(chooser.describeTrace())
      """
    }

    /// Runs the method once under `chooser`; says how it failed, or `nil` when it passed.
    private func run(
      _ method: @escaping @Sendable () async throws -> Void, _ chooser: ScheduleChooser,
      seed: UInt64? = nil, position: String = ""
    ) async -> String? {
      if let seed {
        ExplorationHook.crashReport?.set(
          "The process is stopping while exploring \(testCase.name), in \(position), "
            + "\(exploration.strategy), seed \(hexadecimal(seed)): a schedule that stops the "
            + "process is a finding. Replay it with \(SuiteExploration.variable)="
            + "\(exploration.schedules) SCHEDULERS_EXPLORATION_REPLAY=\(hexadecimal(seed)).")
      }
      let failuresBefore = testCase.testRun?.totalFailureCount ?? 0
      let reported = Mutex<[String]>([])
      var failure: String?
      do {
        try await ExplorationHook.$chooser.withValue(chooser) {
          try await withDeterministicExecutionReportedByCaller(
            virtualTime: SuiteExploration.virtualTime,
            recordLeftovers: { report in reported.withLock { $0.append(report) } },
            method)
        }
      } catch let error as DeterministicExecutionError {
        failure = error.description
      } catch {
        failure = "the method threw \(error)"
      }
      let recorded = (testCase.testRun?.totalFailureCount ?? 0) - failuresBefore
      if recorded > 0 { failure = failure ?? "failures recorded above: \(recorded)" }
      // A task the method leaves behind is the method's own business (it may run on after the
      // test on purpose): a note, not a failure, as in the Swift Testing hook.
      for report in reported.withLock({ $0 }) {
        if report.hasPrefix(pendingWorkReportOpening) {
          TestFailure.writeToStandardError("\(testCase.name): \(report)\n")
        } else {
          failure = failure ?? report
        }
      }
      return failure
    }
  }
#endif

import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

@testable import SchedulersDeterministic

/// A task awaits the run's idleness (an async `advance`, `idle()`) while another task of the
/// run keeps running: a loop that waits by yielding for what the test does after the advance.
/// The run is never idle, so the waiter used to wait for ever, and the test, and every test
/// behind it at the gate. The run now tells the waiter after `DeterministicRun.idleWaitBound`
/// jobs and records a failure that says why. The tests set a tenth of that bound (the
/// mechanism is the same), so that each runs a tenth of the jobs: a second under the thread
/// sanitizer beside busy work, not a minute.
///
/// Each loop here ends by itself after ten times the bound, so that without the bound the test
/// fails (the advance returns only once the loop has ended) instead of hanging.
@Suite("A waiter for idleness beside a task that never stops", .idleWaitBoundOfTheseTests)
struct IdleWaitBoundTests {
  static let bound = DeterministicRun.idleWaitBound / 10
  static let loopCap = bound * 10

  /// The user's mistake: a loop that waits by yielding for `flag`, counting its `steps`; it
  /// ends by itself at `loopCap`.
  static func pollByYielding(until flag: Flag, counting steps: Counter) async {
    while !flag.isSet, steps.value < loopCap {
      steps.increment()
      await Task.yield()
    }
  }

  /// The waiter went on once the loop had run the bound's worth of jobs, and not after the loop
  /// ended by itself. The bound counts jobs, not steps: a step of the loop is a job or a few
  /// (two on the default backend: half the bound in steps), and any other test's actor turn
  /// the run took meanwhile counts too.
  static func expectTheWaiterWentOnAtTheBound(
    afterSteps steps: Int, _ waiter: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      steps >= bound / 4 && steps <= bound, "\(waiter) returned after \(steps) steps of the loop",
      sourceLocation: sourceLocation)
  }

  /// The user's mistake: a model polls by yielding for a flag the test sets after it advances.
  @Test(.offTheCooperativePool)
  func aYieldLoopWaitingForWhatFollowsTheAdvanceIsReportedInsteadOfHanging() async throws {
    let scheduler = DispatchQueue.test
    let ready = Flag()
    let steps = Counter()
    let stepsWhenTheAdvanceReturned = Mutex(-1)
    try await withKnownIssue {
      try await withDeterministicExecution(scheduler: scheduler) {
        let poller = Task { await Self.pollByYielding(until: ready, counting: steps) }
        await scheduler.advance()
        stepsWhenTheAdvanceReturned.withLock { $0 = steps.value }
        ready.set()
        await poller.value
      }
    } matching: { issue in
      issue.description.contains("never idle while a task awaited its idleness")
        && issue.description.contains("1 still queued, 1 of them its own)")
    }
    Self.expectTheWaiterWentOnAtTheBound(
      afterSteps: stepsWhenTheAdvanceReturned.withLock { $0 }, "the advance")
  }

  /// The same loop in a task the run could not tell from its test's: one started from a Dispatch
  /// callback (taken, not its own). Another test's task the run took kept it busy the same way
  /// at a bounded width (fixed in `ActiveRuns`); this bound is the backstop for the tasks the
  /// run cannot place. The report says none of the queued jobs was the run's own.
  @Test(.offTheCooperativePool)
  func aLoopTheRunTookFromADispatchCallbackIsReportedInsteadOfHanging() async throws {
    let stop = Flag()
    let steps = Counter()
    let stepsWhenIdleReturned = Mutex(-1)
    try await withKnownIssue {
      try await withDeterministicExecution {
        let started = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
          Task { await Self.pollByYielding(until: stop, counting: steps) }
          started.signal()
        }
        // Real time, bounded: the callback runs on a Dispatch thread, which a busy machine
        // may give late. The task's first job is in the run's queue once it has signalled.
        #expect(started.wait(timeout: .now() + .seconds(120)) == .success)
        await DeterministicExecution.idle()
        stepsWhenIdleReturned.withLock { $0 = steps.value }
        stop.set()
      }
    } matching: { issue in
      issue.description.contains("never idle while a task awaited its idleness")
        && issue.description.contains("0 of them its own: a task the run took")
    }
    Self.expectTheWaiterWentOnAtTheBound(
      afterSteps: stepsWhenIdleReturned.withLock { $0 }, "idle()")
  }

  /// A run that becomes idle now and then is never stopped, however many jobs it runs in all:
  /// the bound counts only the jobs since the run was last idle.
  @Test(.offTheCooperativePool)
  func manyJobsWithIdleMomentsBetweenThemAreNotReported() async throws {
    let scheduler = DispatchQueue.test
    let steps = Counter()
    try await withDeterministicExecution(scheduler: scheduler) {
      // Each wait far under the bound (a step is a few jobs), more than the bound in steps
      // alone in all.
      for _ in 0..<12 {
        let worker = Task {
          for _ in 0..<(Self.bound / 10) {
            steps.increment()
            await Task.yield()
          }
        }
        await scheduler.advance()
        await worker.value
      }
    }
    #expect(steps.value == 12 * (Self.bound / 10))
  }

  /// The bound counts from the wait: a body that ran more jobs than the bound before it awaits
  /// idleness (never idle meanwhile, since it was runnable itself) is not reported.
  @Test(.offTheCooperativePool)
  func jobsBeforeTheWaitDoNotCount() async throws {
    let scheduler = DispatchQueue.test
    let steps = Counter()
    try await withDeterministicExecution(scheduler: scheduler) {
      for _ in 0..<Self.bound {
        steps.increment()
        await Task.yield()
      }
      await scheduler.advance()
    }
    #expect(steps.value == Self.bound)
  }
}

/// Runs a test with `IdleWaitBoundTests.bound` as its runs' bound on a wait for idleness.
struct IdleWaitBoundOfTheseTests: SuiteTrait, TestTrait, TestScoping {
  var isRecursive: Bool { true }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await DeterministicRun.$idleWaitBoundOverride.withValue(IdleWaitBoundTests.bound) {
      try await function()
    }
  }
}

extension Trait where Self == IdleWaitBoundOfTheseTests {
  static var idleWaitBoundOfTheseTests: Self { Self() }
}

/// A run that closes while a task awaits its idleness (an async `advance`, `idle()`) resumes
/// the waiter: nothing of the run is left to wait for, as a waiter that comes after the run
/// closed is told at once. The settling bound or a livelock given up on ends a run before its
/// waiters are served; a run that ended so used to keep the waiter for ever, its task never
/// resumed. Not under `.idleWaitBoundOfTheseTests`: the settling bound must come before the
/// idle wait's.
@Suite("A run that closes resumes its waiters for idleness")
struct ClosedRunIdleWaiterTests {
  /// The body leaves a task that keeps yielding and one that awaits `idle()`: the run is never
  /// idle, stops settling after `DeterministicRun.settlingBound` jobs and closes with the
  /// waiter still waiting.
  @Test func aWaiterLeftWhenTheSettlingStopsIsResumed() async throws {
    let spinner = Mutex<Task<Void, Never>?>(nil)
    let waiter = Mutex<Task<Void, Never>?>(nil)
    let run = Mutex<DeterministicRun?>(nil)
    try await withKnownIssue {
      try await withDeterministicExecution {
        run.withLock { $0 = DeterministicRun.current }
        spinner.withLock { $0 = Task { while !Task.isCancelled { await Task.yield() } } }
        waiter.withLock { $0 = Task { await DeterministicExecution.idle() } }
      }
    } matching: { issue in
      issue.description.contains("still runnable when the body finished")
    }
    spinner.withLock { $0 }?.cancel()
    let closedRun = try #require(run.withLock { $0 })
    #expect(closedRun.state.withLock { $0.isClosed })
    // Checked before the waiter is awaited, which would hang if the run still held it.
    let kept = closedRun.state.withLock { $0.idleWaiters.count }
    try #require(kept == 0, "the closed run still holds \(kept) waiter(s) for its idleness")
    await waiter.withLock { $0 }?.value
  }
}

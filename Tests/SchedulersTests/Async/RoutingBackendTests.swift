import Dispatch
import Schedulers
import SchedulersDeterministic
@_spi(Experimental) import SchedulersTesting
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The three routing backends behind one contract, and what differs between them. CI runs the
/// whole suite under each (`SCHEDULERS_DETERMINISTIC_BACKEND=hooks` forces the runtime hooks,
/// `main-queue` the runtime hooks without the main executor's, as on Apple's 18 to 25
/// generations), and this suite once more with `SCHEDULERS_DETERMINISTIC_BACKEND=unavailable`,
/// which simulates a platform with none.
@Suite("Routing backends")
struct RoutingBackendTests {
  /// The variable CI sets, read the way the package reads it.
  static let forced = getenv("SCHEDULERS_DETERMINISTIC_BACKEND").map { String(cString: $0) }

  /// Asking which backend there is installs nothing: a suite's `.enabled(if:)` reads it in
  /// every process, and the custom executors are for runs only. In a process of its own, which
  /// no run has touched yet.
  @Test(.exitTestOffThePool) func readingTheBackendInstallsNothing() async {
    await #expect(processExitsWith: .success) {
      let backend = DeterministicExecution.backend
      // (Exit codes, not expectations: the child says what it saw by how it ends.)
      guard !DeterministicExecution.customExecutorsAreInstalled else { exit(3) }
      guard backend == .customExecutors else { return }
      // The first run installs them.
      try? await withDeterministicExecution {}
      guard DeterministicExecution.customExecutorsAreInstalled else { exit(4) }
    }
  }

  @Test func theBackendInUseIsTheOneAskedForOrTheBestThePlatformHas() {
    let backend = DeterministicExecution.backend
    switch Self.forced {
    case "hooks":
      #expect(backend == .runtimeHooks)
      #expect(backend.description == "runtime hooks")
    case "main-queue":
      #expect(backend == .globalHookAndMainQueue)
      #expect(backend.description == "global hook and main queue")
    case "unavailable":
      #expect(!backend.isAvailable)
      #expect(backend.description.contains("simulates a platform with neither backend"))
    default:
      #if compiler(>=6.3) && !compiler(>=6.4) && os(Linux)
        // Linux's runtime comes with the toolchain, and Swift 6.3 compiles the SPI in.
        #expect(backend == .customExecutors)
        #expect(backend.plainTaskSleepIsVirtual)
      #else
        #expect(backend.isAvailable)
      #endif
    }
  }

  /// The documented difference: with the runtime hooks on a 6.3 or later runtime, the runtime
  /// sends a plain `Task.sleep` to no hook, so it sleeps in real time, unseen by the run. A
  /// body that waits on one is reported as a deadlock that names the backend and says what to
  /// do, instead of hanging or passing by luck.
  @Test(
    .enabled(
      if: DeterministicExecution.backend.isAvailable
        && !DeterministicExecution.backend.plainTaskSleepIsVirtual))
  func aPlainSleepTheRuntimeHidesIsReportedNamingTheBackend() async throws {
    let scheduler = DispatchQueue.test
    await withKnownIssue {
      _ = try? await withDeterministicExecution(scheduler: scheduler) {
        try await Task.sleep(for: .seconds(3_600))
      }
    } matching: { issue in
      issue.description.contains("deadlocked")
        && issue.description.contains("Routing: \(DeterministicExecution.backend).")
        && issue.description.contains(
          "a plain Task.sleep inside the run sleeps in real time, unseen by the run")
    }
  }

  /// Where plain sleeps are real time, a body that sleeps briefly several times (120 ms in
  /// all, past the 100 ms deadlock grace) is not mistaken for a deadlock: each wake-up is a
  /// job of the run's own task, which starts the grace again. (Real time, because this
  /// backend cannot make these sleeps virtual; that is what is under test.) Each sleep is
  /// 20 ms, so a wake-up may come 80 ms late before the grace runs out; a margin of 40 ms
  /// (60 ms sleeps) is eaten on a machine busy with the rest of the suite.
  @Test(
    .enabled(
      if: DeterministicExecution.backend.isAvailable
        && !DeterministicExecution.backend.plainTaskSleepIsVirtual))
  func shortRealSleepsOfTheBodyAreNotADeadlock() async throws {
    try await withDeterministicExecution {
      for _ in 1...6 { try await Task.sleep(for: .milliseconds(20)) }
    }
  }

  /// What the same test does with a sleep on the scheduler's clock instead: virtual on every
  /// backend.
  @Test(.deterministicExecutionIsAvailable)
  func aSleepOnTheSchedulersClockIsVirtualOnEveryBackend() async throws {
    let scheduler = DispatchQueue.test
    let woke = Counter()
    try await withDeterministicExecution(scheduler: scheduler) {
      let sleeper = Task {
        try await Task.sleep(for: .seconds(3_600), clock: scheduler.clock)
        woke.increment()
      }
      await scheduler.advance(by: .seconds(3_599))
      #expect(woke.value == 0)
      await scheduler.advance(by: .seconds(1))
      #expect(woke.value == 1)
      try await sleeper.value
    }
  }

  /// `Task.yield()` enqueues on the current executor, not through the global hook: the hooks
  /// backend runs the run's jobs on a task executor of its own so that a yield comes back to
  /// the run. Without that, the yielding task would run beside the driver.
  @Test(.deterministicExecutionIsAvailable)
  func aYieldingTaskStaysInTheRun() async throws {
    let scheduler = DispatchQueue.test
    let steps = Recorder<String>()
    try await withDeterministicExecution(scheduler: scheduler) {
      let yielder = Task {
        for step in 1...3 {
          steps.append("yield \(step)")
          await Task.yield()
        }
      }
      await scheduler.advance()
      // Idle means the yielder ran to its end: every yield came back to the run's queue.
      #expect(steps.values == ["yield 1", "yield 2", "yield 3"])
      await yielder.value
    }
  }

  /// Where neither backend works, a run must not quietly become a racing test: it records an
  /// issue in the running test that says so and why, and throws without running the body.
  @Test(.enabled(if: !DeterministicExecution.backend.isAvailable))
  func whereNoBackendWorksARunFailsLoudlyAndDoesNotRunItsBody() async throws {
    let ran = Counter()
    var thrown: (any Error)?
    await withKnownIssue {
      do {
        try await withDeterministicExecution(scheduler: DispatchQueue.test) {
          ran.increment()
        }
      } catch {
        thrown = error
      }
    } matching: { issue in
      issue.description.contains("Deterministic execution is unavailable here")
        && issue.description.contains("simulates a platform with neither backend")
    }
    #expect(ran.value == 0)
    #expect(thrown is DeterministicExecutionError)
  }

  /// The trait reports it the same way, at the test.
  @Test(.enabled(if: !DeterministicExecution.backend.isAvailable))
  func whereNoBackendWorksTheTraitFailsLoudlyToo() async throws {
    await withKnownIssue {
      _ = try? await withDeterministicExecution {}
    } matching: { issue in
      issue.description.contains("Deterministic execution is unavailable here")
    }
  }
}

/// A run that deadlocks beside an unrelated task that keeps polling: the poller's jobs go
/// through the run (routing is process-wide) but cannot put the deadlock report off, because
/// only the run's own jobs restart the 100 ms grace.
@Suite("Deadlock beside an unrelated poller")
struct DeadlockBesideAPollerTests {
  // (The limit counts the wait at the gate too, behind other tests' runs.)
  @Test(.deterministicExecutionIsAvailable, .timeLimit(.minutes(3)))
  func aDeadlockIsReportedWhileAnUnrelatedTaskKeepsPolling() async throws {
    // Polls are counted once the body has begun: the run may wait its turn at the gate first,
    // behind other tests' runs, for longer than any bound on the poller's life.
    final class Polls: Sendable {
      let bodyBegan = Atomic<Bool>(false)
      let count = Atomic<Int>(0)
    }
    let polls = Polls()
    let pollLimit = 4_000  // 5 ms apart: 20 s after the body began, far longer than the grace
    let poller = Task.detached {
      while polls.count.load(ordering: .relaxed) < pollLimit, !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(5))
        if polls.bodyBegan.load(ordering: .relaxed) { polls.count.add(1, ordering: .relaxed) }
      }
    }
    let scheduler = DispatchQueue.test
    await withKnownIssue {
      _ = try? await withDeterministicExecution(scheduler: scheduler) {
        polls.bodyBegan.store(true, ordering: .relaxed)
        try await scheduler.sleep(for: .seconds(1))  // nobody advances: a deadlock
      }
    } matching: { issue in
      issue.description.contains("deadlocked")
    }
    // The report comes while the poller is still polling, not once it stops.
    let pollsAtReport = polls.count.load(ordering: .relaxed)
    poller.cancel()
    await poller.value
    #expect(pollsAtReport < pollLimit)
  }
}

/// Where plain sleeps stay real (the runtime hooks on runtimes from 6.3 on), the first run with
/// a test scheduler says so once, in the report: a short plain sleep inside a run would
/// otherwise pass in real time without a word. Where they are virtual, nothing is said. Exit
/// tests: the warning is once per process, and the backend is chosen at the first run.
@Suite("Plain sleeps that stay real are announced")
struct RealPlainSleepWarningTests {
  static let warning =
    "warning: deterministic execution: a plain Task.sleep inside a run sleeps in real time here"

  @Test(.exitTestOffThePool) func underTheRuntimeHooksOnThisRuntime() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      setenv("SCHEDULERS_DETERMINISTIC_BACKEND", "hooks", 1)
      // (Where the hooks cannot route the main actor, as on Apple's 18 to 25 generations, the
      // forced backend is unavailable: nothing to check there.)
      guard DeterministicExecution.backend == .runtimeHooks else { return }
      try await runTwiceWithAScheduler()
    }
    guard let result, !DeterministicExecution.Backend.runtimeHooks.plainTaskSleepIsVirtual
    else { return }
    let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(standardError.components(separatedBy: Self.warning).count == 2, "\(standardError)")
    #expect(standardError.contains("(backend: runtime hooks;"), "\(standardError)")
  }

  @Test(.exitTestOffThePool) func notUnderTheCustomExecutors() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      setenv("SCHEDULERS_DETERMINISTIC_BACKEND", "custom-executors", 1)
      guard DeterministicExecution.backend == .customExecutors else { return }
      try await runTwiceWithAScheduler()
    }
    guard let result else { return }
    let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(!standardError.contains(Self.warning), "\(standardError)")
  }
}

/// Two runs with a test scheduler, each sleeping on it: the warning, if any, comes once.
private func runTwiceWithAScheduler() async throws {
  for _ in 0..<2 {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
      try await scheduler.sleep(for: .seconds(1))
    }
  }
}

import Dispatch
import Foundation
import Schedulers
@_spi(Experimental) import SchedulersDeterministic
import Testing

/// Each misuse stops the process with a message that names the problem: proved in a child
/// process with Swift Testing's exit tests, and the message read from its standard error.
@Suite("Bad input stops with a message naming the problem")
struct BadInputTests {
  @Test(.exitTestOffThePool) func zeroRepeatIntervalOnTheTestScheduler() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = DispatchQueue.test
      _ = scheduler.schedule(after: scheduler.now, interval: .zero) {}
    }
    expectStandardError(
      of: result, toContain: "a repeating action needs an interval greater than zero")
  }

  @Test(.exitTestOffThePool) func negativeRepeatIntervalOnTheTestScheduler() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = DispatchQueue.test
      _ = scheduler.schedule(after: scheduler.now, interval: .seconds(-1)) {}
    }
    expectStandardError(
      of: result, toContain: "a repeating action needs an interval greater than zero")
  }

  @Test(.exitTestOffThePool) func zeroRepeatIntervalOnTheImmediateScheduler() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = DispatchQueue.immediate.schedule(after: DispatchQueue.virtualEpoch, interval: .zero) {}
    }
    expectStandardError(
      of: result, toContain: "VirtualImmediateScheduler: a repeating action needs an interval")
  }

  @Test(.exitTestOffThePool) func advancingByANegativeStride() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      DispatchQueue.test.advance(by: .seconds(-1))
    }
    expectStandardError(of: result, toContain: "advance(by:) needs a stride of zero or more")
  }

  @Test(.exitTestOffThePool) func anActionThatAdvancesItsOwnScheduler() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = DispatchQueue.test
      scheduler.schedule { scheduler.advance(by: .seconds(1)) }
      scheduler.advance()
    }
    expectStandardError(of: result, toContain: "called from inside a scheduled action")
  }

  @Test(.exitTestOffThePool) func twoAdvancesAtOnce() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = DispatchQueue.test
      let actionStarted = DispatchSemaphore(value: 0)
      let never = DispatchSemaphore(value: 0)
      scheduler.schedule {
        actionStarted.signal()
        _ = never.wait(timeout: .now() + 60)
      }
      Thread.detachNewThread { scheduler.advance() }
      _ = actionStarted.wait(timeout: .now() + 60)
      scheduler.advance()
    }
    expectStandardError(of: result, toContain: "was called on two threads at once")
  }

  // The package's own dispatch scheduler, time and stride. Where Combine is imported they are
  // Combine's, which define their own handling of these.
  #if !canImport(Combine)
    /// The message names the values and the operation, not a bare "arithmetic overflow".
    @Test(.exitTestOffThePool)
    func strideArithmeticThatOverflowsNamesTheValuesAndTheOperation() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let long = DispatchQueue.SchedulerTimeType.Stride.nanoseconds(.max - 5)
        _ = long + .seconds(1)
      }
      expectStandardError(
        of: result,
        toContain: "Stride arithmetic overflows: 9223372036854775802 ns + 1 s does not fit")
    }

    @Test(.exitTestOffThePool) func zeroRepeatIntervalOnADispatchQueue() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let queue = DispatchQueue(label: "bad-input")
        _ = queue.schedule(after: queue.now, interval: .zero) {}
      }
      expectStandardError(
        of: result, toContain: "DispatchQueue: a repeating action needs an interval")
    }

    @Test(.exitTestOffThePool) func notANumberOfSeconds() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = DispatchQueue.SchedulerTimeType.Stride.seconds(Double.nan)
      }
      expectStandardError(of: result, toContain: "A stride of nan seconds is not finite")
    }

    @Test(.exitTestOffThePool) func zeroRepeatIntervalOnARunLoop() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = RunLoop.main.schedule(after: RunLoop.main.now, interval: .zero) {}
      }
      expectStandardError(of: result, toContain: "RunLoop: a repeating action needs an interval")
    }

    @Test(.exitTestOffThePool) func negativeRepeatIntervalOnAnOperationQueue() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let queue = OperationQueue()
        _ = queue.schedule(after: queue.now, interval: .seconds(-1)) {}
      }
      expectStandardError(
        of: result,
        toContain:
          "OperationQueue: a repeating action needs an interval greater than zero, got -1 s")
    }

    @Test(.exitTestOffThePool) func aRunLoopStrideOfNotANumberOfSeconds() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = RunLoop.SchedulerTimeType.Stride.seconds(Double.nan)
      }
      expectStandardError(
        of: result, toContain: "A scheduler stride needs a finite number of seconds, got nan")
    }

    @Test(.exitTestOffThePool) func infiniteSeconds() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = DispatchQueue.SchedulerTimeType.Stride.seconds(Double.infinity)
      }
      expectStandardError(of: result, toContain: "A stride of inf seconds is not finite")
    }

    @Test(.exitTestOffThePool) func secondsBeyondTheStridesRange() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = DispatchQueue.SchedulerTimeType.Stride.seconds(1e300)
      }
      expectStandardError(of: result, toContain: "does not fit in Int nanoseconds")
    }

    @Test(.exitTestOffThePool) func wholeSecondsBeyondTheStridesRange() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = DispatchQueue.SchedulerTimeType.Stride.seconds(Int.max)
      }
      expectStandardError(of: result, toContain: "9223372036854775807 seconds does not fit")
    }

    @Test(.exitTestOffThePool) func aRepeatingActionWhoseNextDeadlineOverflowsTheClock() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let scheduler = DispatchQueue.test
        let end = DispatchQueue.SchedulerTimeType(uptimeNanoseconds: .max)
        let timer = scheduler.schedule(after: end, interval: .seconds(1)) {}
        scheduler.advance(to: end)
        timer.cancel()
      }
      expectStandardError(of: result, toContain: "next deadline overflows the clock")
    }
  #endif

  @Test(.exitTestOffThePool) func aMainActorActionRunOffTheMainActor() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = DispatchQueue.test
      scheduler.schedule { @MainActor in }
      // Advanced from a background thread: the action cannot run on the main actor.
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        scheduler.advance()
        done.signal()
      }
      _ = done.wait(timeout: .now() + 60)
    }
    expectStandardError(of: result, toContain: "ran off the main actor")
  }

  @Test(.exitTestOffThePool) func negativeRunBound() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      DispatchQueue.test.run(maxActions: -1)
    }
    expectStandardError(of: result, toContain: "run(maxActions:) needs a bound of zero or more")
  }
}

/// Checks that an exit test's standard error contains `message`.
func expectStandardError(
  of result: ExitTest.Result?, toContain message: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let result else { return }  // #expect(processExitsWith:) already recorded the failure.
  let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
  #expect(
    standardError.contains(message), "standard error was: \(standardError)",
    sourceLocation: sourceLocation)
}

/// A value of one of the package's environment variables that the package does not know stops
/// the process at its first read, naming the variable and the values it takes: never ignored.
@Suite("An environment variable's unknown value is refused")
struct EnvironmentValueTests {
  @Test(.exitTestOffThePool) func aShuffleSeedThatIsNotANumber() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      setenv("SCHEDULERS_SHUFFLE_SEED", "tuesday", 1)
      _ = DispatchQueue.test(order: .shuffled)
    }
    expectStandardError(
      of: result,
      toContain:
        "SCHEDULERS_SHUFFLE_SEED must be a number, decimal or 0x hexadecimal, got \"tuesday\"")
  }

  @Test(.exitTestOffThePool) func aStalledSleepLimitThatIsNotSeconds() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      setenv("SCHEDULERS_STALLED_SLEEP_LIMIT", "soon", 1)
      let scheduler = DispatchQueue.test
      let task = Task { try await scheduler.sleep(for: .seconds(1)) }
      try await scheduler.waitForPendingWork(count: 1)
      task.cancel()
    }
    expectStandardError(
      of: result,
      toContain:
        "SCHEDULERS_STALLED_SLEEP_LIMIT must be a finite number of seconds, zero or more (0: no watchdog), got \"soon\""
    )
  }

  @Test(.exitTestOffThePool) func aBackendThePackageDoesNotKnow() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      setenv("SCHEDULERS_DETERMINISTIC_BACKEND", "fastest", 1)
      _ = DeterministicExecution.backend
    }
    expectStandardError(
      of: result,
      toContain:
        "SCHEDULERS_DETERMINISTIC_BACKEND must be default, custom-executors, hooks, main-queue or unavailable, got \"fastest\""
    )
  }

  @Test(.exitTestOffThePool) func anExplorationSeedThatIsNotANumber() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      setenv("SCHEDULERS_EXPLORATION_SEED", "lucky", 1)
      _ = environmentNumber("SCHEDULERS_EXPLORATION_SEED")
    }
    expectStandardError(
      of: result,
      toContain:
        "SCHEDULERS_EXPLORATION_SEED must be a number, decimal or 0x hexadecimal, got \"lucky\"")
  }

  @Test(.exitTestOffThePool) func anEveryRunStrategyThePackageDoesNotKnow() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      setenv("SCHEDULERS_EXPLORE_EVERY_RUN", "always", 1)
      try? await withDeterministicExecution {}
    }
    expectStandardError(
      of: result,
      toContain: "SCHEDULERS_EXPLORE_EVERY_RUN must be pct or random, got \"always\"")
  }

  @Test(.exitTestOffThePool) func aContractsSwitchThatIsNotZeroOrOne() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      setenv("SCHEDULERS_CHECK_CONTRACTS", "yes", 1)
      try? await withDeterministicExecution {}
    }
    expectStandardError(
      of: result, toContain: "SCHEDULERS_CHECK_CONTRACTS must be 0 or 1, got \"yes\"")
  }

  @Test(arguments: ["0x", "12abc"])
  func seedsAreNumbers(text: String) {
    #expect(EnvironmentValue.number(text) == nil)
  }

  @Test func seedsAreDecimalOrHexadecimal() {
    #expect(EnvironmentValue.number("42") == 42)
    #expect(EnvironmentValue.number("0x2A") == 42)
    #expect(EnvironmentValue.number(" 4 2 ") == 42)
  }
}

/// A fallback that turns a feature off says so once per process, in the test report (its
/// standard error), never silently and never once per run.
@Suite("A fallback says so, once")
struct FallbackWarningTests {
  @Test(.exitTestOffThePool) func aFallbackIsWarnedAboutOncePerProcess() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      FallbackWarnings.warnOnce("probe", "the probe feature is off here: no probe")
      FallbackWarnings.warnOnce("probe", "the probe feature is off here: no probe")
    }
    let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      text.components(separatedBy: "warning: deterministic execution: the probe feature is off")
        .count == 2, "\(text)")
  }
}

import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// Virtual time that advances itself: whenever nothing in the run can go on, the run's test
/// scheduler runs its next pending action.
@Suite("Auto-advance", .deterministicExecutionIsAvailable)
struct AutoAdvanceTests {
  @Test func aSleepOnTheSchedulerReturnsWithoutAnAdvance() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
      try await scheduler.sleep(for: .seconds(5))
      #expect(scheduler.now == DispatchQueue.virtualEpoch.advanced(by: .seconds(5)))
      #expect(DeterministicExecution.elapsed == .seconds(5))
    }
  }

  @Test func withoutAutoAdvanceTheSameSleepIsADeadlock() async {
    let scheduler = DispatchQueue.test
    await withKnownIssue {
      _ = try? await withDeterministicExecution(scheduler: scheduler) {
        try await scheduler.sleep(for: .seconds(5))
      }
    } matching: {
      $0.description.contains("deadlocked")
    }
  }

  @Test(.plainTaskSleepIsVirtual)
  func plainSleepsTakeNoRealTimeOnTheRunsOwnClock() async throws {
    try await withDeterministicExecution(virtualTime: .autoAdvance) {
      let started = ContinuousClock.now
      for _ in 0..<3 { try await Task.sleep(for: .seconds(60)) }
      #expect(elapsedIsAbout(.seconds(180)))
      // Three minutes of virtual time, far less than a minute of real time.
      #expect(ContinuousClock.now - started < .seconds(60))
    }
  }

  /// A plain sleep, a sleep on an injected test scheduler, a `Clock`-taking API given the
  /// scheduler's clock, and an action scheduled on it: one virtual timeline, in deadline order.
  @Test(.plainTaskSleepIsVirtual)
  func plainSleepsSchedulerSleepsClockSleepsAndActionsInterleaveByDeadline() async throws {
    let scheduler = DispatchQueue.test
    let log = Recorder<String>()
    try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          try? await Task.sleep(for: .milliseconds(300))
          log.append("plain Task.sleep 300 ms")
        }
        group.addTask {
          try? await scheduler.sleep(for: .milliseconds(100))
          log.append("scheduler.sleep 100 ms")
        }
        group.addTask {
          try? await Task.sleep(for: .milliseconds(200), clock: scheduler.clock)
          log.append("Task.sleep(clock:) 200 ms")
        }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(250))) {
          log.append("action 250 ms")
        }
        group.addTask {
          try? await Task.sleep(for: .milliseconds(400))
          try? await scheduler.sleep(for: .milliseconds(100))
          log.append("plain 400 ms, then scheduler 100 ms")
        }
      }
      #expect(elapsedIsAbout(.milliseconds(500)))
    }
    #expect(
      log.values == [
        "scheduler.sleep 100 ms", "Task.sleep(clock:) 200 ms", "action 250 ms",
        "plain Task.sleep 300 ms", "plain 400 ms, then scheduler 100 ms",
      ])
  }

  @Test func sameInstantWorkKeepsTheSchedulersOrder() async throws {
    let scheduler = DispatchQueue.test
    let log = Recorder<Int>()
    try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
      await withTaskGroup(of: Void.self) { group in
        for index in 1...5 {
          group.addTask {
            try? await scheduler.sleep(for: .seconds(1))
            log.append(index)
          }
          // Each sleeper registers before the next starts.
          await DeterministicExecution.idle()
        }
      }
    }
    #expect(log.values == [1, 2, 3, 4, 5])
  }

  @Test func manualAdvancesStillWorkToLookInBetween() async throws {
    let scheduler = DispatchQueue.test
    let ticks = Recorder<Int>()
    try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
      let task = Task {
        for tick in 1...3 {
          try await scheduler.sleep(for: .seconds(1))
          ticks.append(tick)
        }
      }
      await scheduler.advance(by: .seconds(1))
      #expect(ticks.values == [1])
      try await task.value  // the rest advances by itself
      #expect(ticks.values == [1, 2, 3])
      #expect(DeterministicExecution.elapsed == .seconds(3))
    }
  }

  @Test @MainActor func mainActorActionsRunOnTheMainActor() async throws {
    let scheduler = DispatchQueue.test
    let model = Tally()
    try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
      @MainActor in
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { @MainActor in
        model.count += 1
      }
      try await scheduler.sleep(for: .seconds(2))
      #expect(model.count == 1)
    }
  }

  @Test(.deterministicExecution(.autoAdvance)) func theTraitAutoAdvances() async throws {
    let scheduler = DispatchQueue.test
    // A scheduler of the test's own is not the run's: it is advanced by hand.
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {}
    #expect(DeterministicExecution.elapsed == .zero)
    await scheduler.advance(by: .seconds(1))
    #expect(scheduler.pendingWork.isEmpty)
  }

  @Test(.deterministicExecution(.autoAdvance), .plainTaskSleepIsVirtual)
  func theTraitGivesPlainSleepsTheRunsClock() async throws {
    try await Task.sleep(for: .seconds(30))
    #expect(elapsedIsAbout(.seconds(30)))
  }

  // MARK: Endless work

  @Test func anEndlessTimerStopsAtTheStepBoundNamingItself() async {
    let scheduler = DispatchQueue.test
    await withKnownIssue {
      _ = try? await withDeterministicExecution(
        scheduler: scheduler, virtualTime: .autoAdvance(maxSteps: 50)
      ) {
        let never = AsyncStream<Void> { _ in }
        let timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {}
        for await _ in never {}
        timer.cancel()
      }
    } matching: { issue in
      let text = issue.description
      return text.contains("Auto-advance stopped at 49 s of virtual time")
        && text.contains("it ran 50 actions (maxSteps)")
        && text.contains("What kept scheduling itself: repeating every 1 s (ran 50 times)")
        && text.contains("DeterministicExecution.background")
    }
  }

  @Test(.plainTaskSleepIsVirtual)
  func aPollingLoopStopsAtTheVirtualTimeBound() async {
    await withKnownIssue {
      _ = try? await withDeterministicExecution(
        virtualTime: .autoAdvance(maxVirtualTime: .seconds(3_600))
      ) {
        while true {
          try await Task.sleep(for: .seconds(60))  // polls forever; cancelled by the bound
        }
      }
    } matching: { issue in
      issue.description.contains("Auto-advance stopped at 3600 s of virtual time")
        && issue.description.contains("the next action is due 3660 s after the run started")
        && issue.description.contains("a Task.sleep (ran 60 times)")
    }
  }

  @Test func backgroundWorkRunsAlongAndIsCancelledWhenTheBodyReturns() async throws {
    let scheduler = DispatchQueue.test
    let polls = Counter()
    let ended = Recorder<String>()
    try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
      DeterministicExecution.background {
        do {
          while true {
            try await scheduler.sleep(for: .seconds(30))
            polls.increment()
          }
        } catch {
          ended.append("\(type(of: error))")
        }
      }
      try await scheduler.sleep(for: .seconds(95))
      #expect(polls.value == 3)
    }
    // Cancelled when the body returned, without a failure or a leftover report.
    #expect(ended.values == ["CancellationError"])
    #expect(scheduler.pendingWork.isEmpty)
  }

  @Test func backgroundOutsideARunIsReported() async {
    await withKnownIssue {
      let task = DeterministicExecution.background {}
      await task.value
    } matching: {
      $0.description.contains("called outside a deterministic run")
    }
  }

  @Test func aBodyThatWaitsOnNothingTimedIsStillADeadlock() async {
    await withKnownIssue {
      _ = try? await withDeterministicExecution(virtualTime: .autoAdvance) {
        // Waits on a stream nobody feeds (nothing timed), which the cancellation ends.
        let (never, _) = AsyncStream<Void>.makeStream()
        for await _ in never {}
      }
    } matching: {
      $0.description.contains("deadlocked")
    }
  }

  @Test func zeroAndHugeSleepsInAnAutoAdvancingRun() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
      try await scheduler.sleep(for: .zero)
      #expect(DeterministicExecution.elapsed == .zero)
      try await scheduler.sleep(for: .seconds(86_000))
      #expect(DeterministicExecution.elapsed == .seconds(86_000))
    }
    await withKnownIssue {
      _ = try? await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
        try await scheduler.sleep(for: .seconds(86_400 * 365))  // past the one-day bound
      }
    } matching: {
      $0.description.contains("past maxVirtualTime (86400 s)")
    }
  }
}

/// Bounds that bound nothing stop the process with a message naming the bound. They are
/// checked where the bounds are made, before any run, so these need no backend.
@Suite("Auto-advance: bounds that bound nothing are refused")
struct AutoAdvanceBoundTests {
  @Test(.exitTestOffThePool) func zeroSteps() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = DeterministicExecution.VirtualTime.autoAdvance(maxSteps: 0)
    }
    expectStandardError(
      of: result, toContain: "VirtualTime.autoAdvance(maxSteps:) needs at least one step, got 0")
  }

  @Test(.exitTestOffThePool) func aNegativeVirtualTime() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = DeterministicExecution.VirtualTime.autoAdvance(maxVirtualTime: .seconds(-1))
    }
    expectStandardError(
      of: result,
      toContain:
        "VirtualTime.autoAdvance(maxVirtualTime:) needs a duration of zero or more, got -1.0 seconds"
    )
  }
}

/// Whether the run's virtual time is `duration`, to the millisecond: a plain sleep's deadline
/// is exact but for a rare preemption (see `PlainSleepExactnessTests`).
func elapsedIsAbout(_ duration: Duration) -> Bool {
  guard let elapsed = DeterministicExecution.elapsed else { return false }
  return elapsed >= duration - .milliseconds(1) && elapsed <= duration + .milliseconds(1)
}

@MainActor private final class Tally {
  var count = 0
}

/// The example of "Tests that sleep, unchanged", as written there.
@Suite(.deterministicExecutionIsAvailable, .plainTaskSleepIsVirtual)
struct TestsThatSleepUnchangedExamples {
  @Test(.deterministicExecution(.autoAdvance)) func pollingEveryThirtySeconds() async throws {
    let polls = Counter()
    DeterministicExecution.background {
      while (try? await Task.sleep(for: .seconds(30))) != nil {
        polls.increment()
      }
    }
    try await Task.sleep(for: .seconds(95))
    #expect(polls.value == 3)
  }
}

/// The README's third example ("Code that sleeps"), as written there; the first two are in
/// `ReadmeExamplesTests`.
@MainActor final class CountdownViewModel {
  private(set) var secondsLeft = 3
  func countdown() async throws {
    while secondsLeft > 0 {
      try await Task.sleep(for: .seconds(1))
      secondsLeft -= 1
    }
  }
}

@Suite(.deterministicExecutionIsAvailable, .plainTaskSleepIsVirtual)
struct ReadmeAutoAdvanceExample {
  @Test(.deterministicExecution(.autoAdvance)) @MainActor
  func theCountdownReachesZeroInNoTime() async throws {
    let model = CountdownViewModel()
    try await model.countdown()  // three plain one-second sleeps
    #expect(model.secondsLeft == 0)
  }
}

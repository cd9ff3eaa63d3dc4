import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

@Suite("Sleeping on a scheduler")
struct SleepTests {
  @Test func aDeadlineAtOrBeforeNowReturnsAtOnce() async throws {
    let scheduler = DispatchQueue.test
    await scheduler.advance(by: .seconds(5))
    try await scheduler.sleep(until: scheduler.now)
    try await scheduler.sleep(until: DispatchQueue.virtualEpoch)
    try await scheduler.sleep(for: .zero)
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func aTaskCancelledBeforeSleepingThrowsAtOnceAndSchedulesNothing() async {
    let scheduler = DispatchQueue.test
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await scheduler.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func aTaskCancelledWhileSleepingThrowsAndItsEntryLeavesTheQueue() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      let sleeper = Task { try await scheduler.sleep(for: .seconds(10)) }
      await scheduler.advance()
      #expect(scheduler.pendingActionCount == 1)
      sleeper.cancel()
      await scheduler.advance()
      await #expect(throws: CancellationError.self) { try await sleeper.value }
      #expect(scheduler.pendingActionCount == 0)
    }
  }

  @Test func cancellingThroughAnErasedSchedulerAlsoRemovesTheEntry() async throws {
    let test = DispatchQueue.test
    let scheduler = test.eraseToAnyScheduler()
    try await withDeterministicExecution(scheduler: test) {
      let sleeper = Task { try await scheduler.sleep(for: .seconds(10)) }
      await test.advance()
      #expect(test.pendingActionCount == 1)
      sleeper.cancel()
      await test.advance()
      #expect(test.pendingActionCount == 0)
    }
  }

  @Test func sleepersWakeInDeadlineOrder() async throws {
    let scheduler = DispatchQueue.test
    let log = Recorder<Int>()
    try await withDeterministicExecution(scheduler: scheduler) {
      for seconds in [3, 1, 2] {
        Task {
          try await scheduler.sleep(for: .seconds(seconds))
          log.append(seconds)
        }
      }
      await scheduler.advance(by: .seconds(3))
      #expect(log.values == [1, 2, 3])
    }
  }

  @Test func sleepersRegisteredDuringAStepInsideItsRangeWakeInTheSameStep() async throws {
    let scheduler = DispatchQueue.test
    let log = Recorder<String>()
    try await withDeterministicExecution(scheduler: scheduler) {
      Task {
        try await scheduler.sleep(for: .seconds(1))
        log.append("1 s")
        try await scheduler.sleep(for: .seconds(1))  // registered at 1 s, due at 2 s
        log.append("2 s")
        try await scheduler.sleep(for: .seconds(5))  // due at 7 s: outside the step
        log.append("7 s")
      }
      Task {
        try await scheduler.sleep(for: .milliseconds(1_500))
        log.append("1.5 s")
      }
      await scheduler.advance(by: .seconds(3))
      #expect(log.values == ["1 s", "1.5 s", "2 s"])
      await scheduler.advance(by: .seconds(4))
      #expect(log.values == ["1 s", "1.5 s", "2 s", "7 s"])
    }
  }

  @Test func theImmediateSchedulerSleepsReturnAtOnceButStillHonourCancellation() async {
    try? await DispatchQueue.immediate.sleep(for: .seconds(3_600))
    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await DispatchQueue.immediate.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await cancelled.value }
  }

  @Test func anUnimplementedSchedulersSleepFailsTheTestOnce() async throws {
    let scheduler = DispatchQueue.unimplemented("sleepy")
    try await withKnownIssue {
      try await scheduler.sleep(for: .seconds(1))
    } matching: { issue in
      issue.description.contains("Unimplemented scheduler 'sleepy'")
        && issue.description.contains("sleep(for:tolerance:)")
    }
  }

  @Test func aDispatchQueueSleepsInRealTimeAndWakesOnCancellation() async throws {
    let queue = DispatchQueue(label: "sleeping")
    try await queue.sleep(for: .milliseconds(5))
    let sleeper = Task { try await queue.sleep(for: .seconds(60)) }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }
}

@Suite("Timers and the Clock view")
struct TimerAndClockTests {
  /// Two timers, every 2 s and every 3 s, advanced 6 s: at 6 s both are due, and they tick in
  /// the order they were started, as two `schedule(after:interval:)` timers (and Combine's
  /// `Timer` publisher) do. Ordered by when each sleep was registered, the 3 s timer, which
  /// registers its sleep for 6 s earlier (at 3 s, against 4 s), would tick first: 1, 2, 1, 2, 1.
  @Test func timersDueAtOneInstantTickInTheOrderTheyStarted() async throws {
    let expected = [1, 2, 1, 1, 2]
    let scheduler = DispatchQueue.test
    let ticks = Recorder<Int>()
    try await withDeterministicExecution(scheduler: scheduler) {
      let every2 = Task {
        for await _ in scheduler.timer(interval: .seconds(2)) { ticks.append(1) }
      }
      await scheduler.advance()  // the first timer starts before the second
      let every3 = Task {
        for await _ in scheduler.timer(interval: .seconds(3)) { ticks.append(2) }
      }
      await scheduler.advance(by: .seconds(6))
      every2.cancel()
      every3.cancel()
      await scheduler.advance()
    }
    #expect(ticks.values == expected)

    let repeating = DispatchQueue.test
    let actions = Recorder<Int>()
    let first = repeating.schedule(
      after: repeating.now.advanced(by: .seconds(2)), interval: .seconds(2)
    ) {
      actions.append(1)
    }
    let second = repeating.schedule(
      after: repeating.now.advanced(by: .seconds(3)), interval: .seconds(3)
    ) {
      actions.append(2)
    }
    await repeating.advance(by: .seconds(6))
    #expect(actions.values == expected)
    first.cancel()
    second.cancel()
  }

  @Test func aTimerTicksEveryIntervalUntilItsTaskIsCancelled() async throws {
    let scheduler = DispatchQueue.test
    let ticks = Recorder<DispatchQueue.SchedulerTimeType>()
    try await withDeterministicExecution(scheduler: scheduler) {
      let start = scheduler.now
      let consumer = Task {
        for await tick in scheduler.timer(interval: .seconds(1)) { ticks.append(tick) }
      }
      await scheduler.advance(by: .seconds(3))
      #expect(ticks.values == [1, 2, 3].map { start.advanced(by: .seconds($0)) })
      consumer.cancel()
      await scheduler.advance()
      await consumer.value
      #expect(scheduler.pendingActionCount == 0)
    }
  }

  /// The consumer spends 2.5 s on the first tick, on the same scheduler.
  @Test(
    arguments: [
      // Ticks due at 2 s and 3 s come at once at 3.5 s; 4 s and 5 s when due.
      (MissedTickPolicy.burst, [(1, 1_000), (2, 3_500), (3, 3_500), (4, 4_000), (5, 5_000)]),
      // Ticks due at 2 s and 3 s are dropped.
      (.drop, [(1, 1_000), (4, 4_000), (5, 5_000)]),
    ])
  func aSlowConsumer(missedTicks: MissedTickPolicy, expected: [(due: Int, at: Int)]) async throws {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let milliseconds: @Sendable (DispatchQueue.SchedulerTimeType) -> Int = { instant in
      Int(start.distance(to: instant).magnitude / 1_000_000)
    }
    let ticks = Recorder<[Int]>()
    try await withDeterministicExecution(scheduler: scheduler) {
      let consumer = Task {
        var first = true
        for await tick in scheduler.timer(interval: .seconds(1), missedTicks: missedTicks) {
          ticks.append([milliseconds(tick) / 1_000, milliseconds(scheduler.now)])
          if first {
            first = false
            try? await scheduler.sleep(for: .milliseconds(2_500))
          }
        }
      }
      await scheduler.advance(by: .seconds(5))
      consumer.cancel()
      await scheduler.advance()
      await consumer.value
    }
    #expect(ticks.values == expected.map { [$0.due, $0.at] })
  }

  @Test func aDroppingTimerDeliversATickDueExactlyWhenTheConsumerReturns() async throws {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let ticks = Recorder<DispatchQueue.SchedulerTimeType>()
    try await withDeterministicExecution(scheduler: scheduler) {
      let consumer = Task {
        var first = true
        for await tick in scheduler.timer(interval: .seconds(1), missedTicks: .drop) {
          ticks.append(tick)
          if first {
            first = false
            try? await scheduler.sleep(for: .seconds(2))  // back at 3 s, as tick 3 is due
          }
        }
      }
      await scheduler.advance(by: .seconds(4))
      consumer.cancel()
      await scheduler.advance()
      await consumer.value
    }
    #expect(ticks.values == [1, 3, 4].map { start.advanced(by: .seconds($0)) })
  }

  @Test func taskSleepOnTheClockViewFollowsTheScheduler() async throws {
    let scheduler = DispatchQueue.test
    let woke = Counter()
    try await withDeterministicExecution(scheduler: scheduler) {
      Task {
        try await Task.sleep(for: .seconds(5), clock: scheduler.clock)
        woke.increment()
      }
      await scheduler.advance(by: .seconds(4))
      #expect(woke.value == 0)
      await scheduler.advance(by: .seconds(1))
      #expect(woke.value == 1)
    }
  }

  @Test func theClockViewTellsTheSchedulersTime() {
    let scheduler = DispatchQueue.test
    let clock = scheduler.clock
    let start = clock.now
    scheduler.advance(by: .milliseconds(1_500))
    #expect(start.duration(to: clock.now) == .milliseconds(1_500))
    #expect(
      start.advanced(by: .seconds(2)).time == DispatchQueue.virtualEpoch.advanced(by: .seconds(2)))
    #expect(clock.minimumResolution == .nanoseconds(1))
  }
}

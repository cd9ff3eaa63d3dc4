import Dependencies
import Dispatch
import Schedulers
import SchedulersTesting
import Testing

// `import Dependencies` re-exports CombineSchedulers, which has a `TestSchedulerOf` and a
// `DispatchQueue.test` of its own: the type is spelled `Schedulers.TestSchedulerOf`, and naming
// it is what picks this package's `DispatchQueue.test`.

/// Features that sleep on `@Dependency(\.continuousClock)`, with a test scheduler's clock put
/// in its place: `continuousClock` is `any Clock<Duration>`, and `scheduler.clock` is a
/// `Clock` whose `Duration` is `Duration`, so it fits as it is. Run under every backend in CI.
@MainActor @Suite(.serialized)
struct ContinuousClockDependencyTests {
  /// The models take their clock when they are made, so they are made inside
  /// `withDependencies`, as swift-dependencies asks; they keep it for every later call.
  func makeCountdown(on scheduler: Schedulers.TestSchedulerOf<DispatchQueue>) -> CountdownModel {
    withDependencies {
      $0.continuousClock = scheduler.clock
    } operation: {
      CountdownModel()
    }
  }

  func makeDraft(on scheduler: Schedulers.TestSchedulerOf<DispatchQueue>) -> DraftModel {
    withDependencies {
      $0.continuousClock = scheduler.clock
    } operation: {
      DraftModel()
    }
  }

  // MARK: Auto-advancing runs

  /// The test awaits the feature and nothing else: virtual time jumps to each sleep's
  /// deadline, so three one-second sleeps take three seconds of the scheduler's time and no
  /// real time.
  @Test func aCountdownAwaitedInAnAutoAdvancingRunReachesZero() async throws {
    let scheduler: Schedulers.TestSchedulerOf<DispatchQueue> = DispatchQueue.test
    let start = scheduler.now
    try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
      @MainActor in
      let model = makeCountdown(on: scheduler)
      try await model.start(from: 3)
      #expect(model.secondsLeft == 0)
      #expect(model.hasFinished)
    }
    #expect(scheduler.now == start.advanced(by: .seconds(3)))
  }

  /// What `@Dependency(\.continuousClock)` gives back tells the scheduler's time: its own
  /// measurement of a five-second sleep is exactly five seconds. A real clock would measure
  /// the real time the sleep took, next to nothing where the backend makes plain sleeps
  /// virtual; there, the feature tests alone cannot tell the two apart.
  @Test func theInjectedClockTellsTheSchedulersTime() async throws {
    let scheduler: Schedulers.TestSchedulerOf<DispatchQueue> = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
      @MainActor in
      let clock = withDependencies {
        $0.continuousClock = scheduler.clock
      } operation: {
        @Dependency(\.continuousClock) var clock
        return clock
      }
      let elapsed = try await clock.measure { try await clock.sleep(for: .seconds(5)) }
      #expect(elapsed == .seconds(5))
    }
  }

  // MARK: Manually advanced runs

  /// Each advance runs what it made due before it returns, so the state in between is exact:
  /// one second fewer per second advanced, and nothing before.
  @Test func aCountdownMovesOneStepPerSecondAdvanced() async throws {
    let scheduler: Schedulers.TestSchedulerOf<DispatchQueue> = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let model = makeCountdown(on: scheduler)
      let countdown = Task { try await model.start(from: 3) }
      await scheduler.advance()
      #expect(model.secondsLeft == 3)
      await scheduler.advance(by: .milliseconds(999))
      #expect(model.secondsLeft == 3)
      await scheduler.advance(by: .milliseconds(1))
      #expect(model.secondsLeft == 2)
      await scheduler.advance(by: .seconds(1))
      #expect(model.secondsLeft == 1)
      #expect(!model.hasFinished)
      await scheduler.advance(by: .seconds(1))
      #expect(model.secondsLeft == 0)
      #expect(model.hasFinished)
      try await countdown.value
    }
  }

  /// The autosave waits for a two-second pause: an edit within it puts the save off, and the
  /// save that cannot happen any more leaves nothing pending on the scheduler.
  @Test func aDraftIsSavedOnceEditingHasPausedForTwoSeconds() async throws {
    let scheduler: Schedulers.TestSchedulerOf<DispatchQueue> = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let model = makeDraft(on: scheduler)
      model.textChanged("H")
      await scheduler.advance(by: .seconds(1))
      #expect(model.savedTexts == [])
      #expect(model.hasUnsavedChanges)

      model.textChanged("Hi")
      await scheduler.advance(by: .seconds(1))
      // Two seconds since the first edit, one since the last: the first save was put off.
      #expect(model.savedTexts == [])
      #expect(scheduler.pendingActionCount == 1)

      await scheduler.advance(by: .seconds(1))
      #expect(model.savedTexts == ["Hi"])
      #expect(!model.hasUnsavedChanges)

      await scheduler.advance(by: .seconds(10))
      #expect(model.savedTexts == ["Hi"])
      #expect(scheduler.pendingActionCount == 0)
    }
  }

  // MARK: A mistake a user makes

  /// Awaiting the countdown in a manual run without advancing: nothing can wake it, so the run
  /// cancels it and fails the test, naming the sleep it was waiting for, instead of hanging.
  @Test func forgettingToAdvanceAManualRunIsReportedAsADeadlock() async throws {
    let scheduler: Schedulers.TestSchedulerOf<DispatchQueue> = DispatchQueue.test
    var thrown: (any Error)?
    await withKnownIssue {
      do {
        try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
          let model = makeCountdown(on: scheduler)
          try await model.start(from: 3)  // no advance: a deadlock
        }
      } catch {
        thrown = error
      }
    } matching: { issue in
      issue.description.contains("deadlocked")
        && issue.description.contains("Pending: 1 on the test scheduler: an action, due in 1 s")
    }
    #expect(thrown is DeterministicExecutionError)
    #expect(scheduler.pendingActionCount == 0)  // the cancelled sleep left nothing behind
  }
}

import Dependencies
import Dispatch
import Schedulers
import SchedulersTesting
import Testing

// The example of the migration article's "With swift-dependencies", word for word from the
// line after the imports: `.ci/run` checks that the two stay the same.

@MainActor
final class TimerModel {
  @Dependency(\.continuousClock) var clock
  private(set) var secondsLeft = 0

  func start(from seconds: Int) async throws {
    secondsLeft = seconds
    while secondsLeft > 0 {
      try await clock.sleep(for: .seconds(1))
      secondsLeft -= 1
    }
  }
}

@Test @MainActor func theTimerCountsDownOneSecondAtATime() async throws {
  let scheduler: Schedulers.TestSchedulerOf<DispatchQueue> = DispatchQueue.test
  try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
    let model = withDependencies {
      $0.continuousClock = scheduler.clock
    } operation: {
      TimerModel()
    }
    let countdown = Task { try await model.start(from: 3) }
    await scheduler.advance(by: .seconds(1))
    #expect(model.secondsLeft == 2)
    await scheduler.advance(by: .seconds(2))
    #expect(model.secondsLeft == 0)
    try await countdown.value
  }
}

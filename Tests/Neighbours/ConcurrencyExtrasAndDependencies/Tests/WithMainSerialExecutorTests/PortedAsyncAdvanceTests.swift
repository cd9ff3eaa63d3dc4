import ConcurrencyExtras
import Dispatch
import Schedulers
import SchedulersTesting
import XCTest

/// The shape of combine-schedulers 1.2.2's `testAsyncSleep`, `testAsyncTimer` and
/// `testAsyncRun`, written against this package: a task sleeps on a test scheduler, and the
/// test awaits `advance` or `run()` inside `withMainSerialExecutor`, outside any deterministic
/// run. Outside a run, async `advance` yields before each step, as the peer's does: moving the
/// clock before the task has registered its sleep (as the synchronous advance would) hangs
/// the test.
final class PortedAsyncAdvanceTests: XCTestCase {
  @MainActor
  func testASleepingTaskWakesWhenAdvancedUnderTheMainSerialExecutor() async throws {
    try await withMainSerialExecutor {
      let scheduler = DispatchQueue.test
      let task = Task { try await scheduler.sleep(for: .seconds(1)) }
      await scheduler.advance(by: .seconds(1))
      try await task.value
    }
  }

  @MainActor
  func testATimerTicksTenTimesInTenSecondsUnderTheMainSerialExecutor() async {
    await withMainSerialExecutor {
      let scheduler = DispatchQueue.test
      let task = Task {
        await scheduler.timer(interval: .seconds(1)).prefix(10)
          .reduce(into: 0) { @Sendable count, _ in count += 1 }
      }
      await scheduler.advance(by: .seconds(10))
      let count = await task.value
      XCTAssertEqual(count, 10)
    }
  }

  @MainActor
  func testRunDrainsATimerUnderTheMainSerialExecutor() async {
    await withMainSerialExecutor {
      let scheduler = DispatchQueue.test
      let task = Task {
        await scheduler.timer(interval: .seconds(1)).prefix(10)
          .reduce(into: 0) { @Sendable count, _ in count += 1 }
      }
      await scheduler.run()
      let count = await task.value
      XCTAssertEqual(count, 10)
    }
  }
}

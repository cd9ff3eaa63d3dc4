import Foundation
import Schedulers
import SchedulersTesting
import Testing

/// The test, immediate, unimplemented and erased schedulers over run-loop and operation-queue
/// time, where Combine is imported and where it is not.
@Suite("Virtual schedulers of run loops and operation queues")
struct DateBasedVirtualSchedulerTests {
  @Test func theRunLoopTestSchedulerRunsWorkWhenTheClockGetsThere() {
    let scheduler = RunLoop.test
    let start = scheduler.now
    #expect(start == RunLoop.virtualEpoch)
    let log = Recorder<TimeInterval>()
    scheduler.schedule(after: start.advanced(by: .milliseconds(1_500))) {
      log.append(start.distance(to: scheduler.now).timeInterval)
    }
    let timer = scheduler.schedule(after: start.advanced(by: 1), interval: 1) {
      log.append(start.distance(to: scheduler.now).timeInterval)
    }
    scheduler.advance(by: .milliseconds(999))
    #expect(log.values.isEmpty)
    scheduler.advance(by: .seconds(2))
    #expect(log.values == [1, 1.5, 2])
    timer.cancel()
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func theOperationQueueTestSchedulerOrdersTicksLikeCombineSchedulers() {
    let scheduler = OperationQueue.test
    let log = Recorder<Int>()
    let first = scheduler.schedule(after: scheduler.now, interval: 2) { log.append(1) }
    let second = scheduler.schedule(after: scheduler.now, interval: 1) { log.append(42) }
    scheduler.advance()
    #expect(log.values == [1, 42])
    scheduler.advance(by: 2)
    #expect(log.values == [1, 42, 42, 1, 42])
    first.cancel()
    second.cancel()
  }

  @Test func sleepsAndTimersWorkOnRunLoopTime() async throws {
    let scheduler = RunLoop.test
    let woke = Recorder<String>()
    let sleeper = Task {
      try await scheduler.sleep(for: .milliseconds(250))
      woke.append("slept")
    }
    try await scheduler.waitForPendingWork(count: 1)
    await scheduler.advance(by: .milliseconds(250))
    try await sleeper.value
    #expect(woke.values == ["slept"])
  }

  @Test func theImmediateSchedulersRunAtOnce() {
    let log = Recorder<String>()
    let runLoop = RunLoop.immediate
    runLoop.schedule(after: runLoop.now.advanced(by: .seconds(60))) { log.append("run loop") }
    let queue: AnySchedulerOf<OperationQueue> = .immediate
    queue.schedule(after: queue.now.advanced(by: .seconds(60))) { log.append("operation queue") }
    #expect(log.values == ["run loop", "operation queue"])
    #expect(runLoop.now == RunLoop.virtualEpoch)
  }

  @Test func theErasedTestSchedulerIsStillAdvancedThroughTheOriginal() {
    let test = RunLoop.test
    let erased: AnySchedulerOf<RunLoop> = test.eraseToAnyScheduler()
    let log = Recorder<String>()
    erased.schedule(after: erased.now.advanced(by: 1)) { log.append("ran") }
    test.advance(by: 1)
    #expect(log.values == ["ran"])
  }

  @Test func usingAnUnimplementedSchedulerFailsTheTest() {
    let runLoop = RunLoop.unimplemented("RunLoop scheduler")
    let queue: AnySchedulerOf<OperationQueue> = .unimplemented("OperationQueue scheduler")
    withKnownIssue {
      runLoop.schedule {}
    } matching: {
      $0.description.contains("Unimplemented scheduler 'RunLoop scheduler'")
    }
    withKnownIssue {
      queue.schedule {}
    } matching: {
      $0.description.contains("Unimplemented scheduler 'OperationQueue scheduler'")
    }
  }
}

import Foundation
import Schedulers
import Testing

/// Tests of the package's own operation-queue scheduler (where Combine is imported, the
/// conformance is Combine's). Real time: every wait is bounded and only reached on failure.
#if !canImport(Combine)
  @Suite("OperationQueue scheduler")
  struct OperationQueueSchedulerTests {
    @Test func schedulesOnTheQueue() {
      let queue = OperationQueue()
      let ran = DispatchSemaphore(value: 0)
      let onQueue = Recorder<Bool>()
      queue.schedule {
        onQueue.append(OperationQueue.current === queue)
        ran.signal()
      }
      #expect(ran.wait(timeout: .now() + 60) == .success)
      #expect(onQueue.values == [true])
    }

    @Test func runsDelayedWorkNoEarlierThanItsDate() {
      let queue = OperationQueue()
      let ran = DispatchSemaphore(value: 0)
      let deadline = queue.now.advanced(by: .milliseconds(20))
      let ranAt = Recorder<OperationQueue.SchedulerTimeType>()
      queue.schedule(after: deadline) {
        ranAt.append(queue.now)
        ran.signal()
      }
      #expect(ran.wait(timeout: .now() + 60) == .success)
      #expect(ranAt.values.first.map { $0 >= deadline } == true)
    }

    @Test func repeatingWorkTicksUntilCancelled() {
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 1
      let ticks = Counter()
      let thirdTick = DispatchSemaphore(value: 0)
      let timer = queue.schedule(after: queue.now, interval: .milliseconds(2)) {
        ticks.increment()
        if ticks.value == 3 { thirdTick.signal() }
      }
      #expect(thirdTick.wait(timeout: .now() + 60) == .success)
      timer.cancel()
      // An occurrence added just before the cancel may still run; after that, none.
      queue.waitUntilAllOperationsAreFinished()
      let afterStop = ticks.value
      let waited = DispatchSemaphore(value: 0)
      queue.schedule(after: queue.now.advanced(by: .milliseconds(20))) { waited.signal() }
      #expect(waited.wait(timeout: .now() + 60) == .success)
      queue.waitUntilAllOperationsAreFinished()
      #expect(ticks.value == afterStop)
    }

    /// The timer adds occurrences from a global queue, so one can be in the queue, not yet
    /// started, when `cancel()` returns (the race once failed the test above in CI, a fourth
    /// tick after the stop). Such an occurrence must not run the action.
    @Test func anOccurrenceQueuedBeforeTheCancelDoesNotRun() {
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 1
      queue.isSuspended = true
      let ticks = Counter()
      let timer = queue.schedule(after: queue.now, interval: .milliseconds(1)) {
        ticks.increment()
      }
      let queued = DispatchSemaphore(value: 0)
      let watcher = DispatchQueue(label: "operation count")
      @Sendable func watch() {
        if queue.operationCount >= 2 {
          queued.signal()
        } else {
          watcher.asyncAfter(deadline: .now() + .milliseconds(1)) { watch() }
        }
      }
      watcher.async { watch() }
      #expect(queued.wait(timeout: .now() + 60) == .success)
      timer.cancel()
      queue.isSuspended = false
      queue.waitUntilAllOperationsAreFinished()
      #expect(ticks.value == 0)
    }

    @Test func theErasedMainQueueReadsTheClock() {
      let before = Date()
      let scheduler: AnySchedulerOf<OperationQueue> = .main
      #expect(scheduler.now.date >= before)
    }
  }
#endif

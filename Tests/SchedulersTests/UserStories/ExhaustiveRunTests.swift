import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

// `run()` executes everything until nothing is scheduled. A repeating timer never
// drains, so `run()` on it must not hang a test forever: it stops at a documented bound and
// reports it. A timer limited to 3 ticks drains in exactly 3 ticks.

/// A timer that stops itself after `limit` ticks.
final class LimitedTimer: Sendable {
  private let ticks = Atomic(0)
  private let cancellable = Mutex<SendableCancellable?>(nil)

  var tickCount: Int { ticks.load(ordering: .relaxed) }

  init<S: Scheduler & Sendable>(
    on scheduler: S, every interval: S.SchedulerTimeType.Stride, limit: Int
  ) {
    let timer = scheduler.schedule(after: scheduler.now.advanced(by: interval), interval: interval)
    {
      [weak self] in
      guard let self else { return }
      if self.ticks.add(1, ordering: .relaxed).newValue == limit {
        self.cancellable.withLock { $0 }?.cancel()
      }
    }
    cancellable.withLock { $0 = SendableCancellable(timer) }
  }
}

@Suite("Exhaustive runs that never hang")
struct ExhaustiveRunTests {
  @Test func aTimerLimitedToThreeTicksDrainsInExactlyThreeTicks() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let timer = LimitedTimer(on: scheduler, every: .seconds(1), limit: 3)
    let ran = scheduler.run()
    #expect(ran == 3)
    #expect(timer.tickCount == 3)
    #expect(scheduler.now == start.advanced(by: .seconds(3)))
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test(.offTheCooperativePool) func anEndlessTimerStopsAtTheBoundAndFailsTheTestInsteadOfHanging()
  {
    let scheduler = DispatchQueue.test
    let ticks = Counter()
    let timer = AnyCancellable(
      scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { ticks.increment() })
    withKnownIssue {
      scheduler.run()
    } matching: { issue in
      issue.description.contains("run() stopped after 100000 actions")
    }
    #expect(ticks.value == 100_000)
    _ = timer
  }
}

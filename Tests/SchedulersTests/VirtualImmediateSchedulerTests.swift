import Dispatch
import Schedulers
import Synchronization
import Testing

@Suite("VirtualImmediateScheduler")
struct ImmediateSchedulerTests {
  @Test func runsEveryKindOfScheduleAtOnce() {
    let scheduler = DispatchQueue.immediate
    let log = Recorder<String>()
    scheduler.schedule { log.append("now") }
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(3_600))) { log.append("later") }
    _ = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { log.append("repeat") }
    #expect(log.values == ["now", "later", "repeat"])
  }

  @Test func nowNeverMoves() {
    let scheduler = DispatchQueue.immediate
    let before = scheduler.now
    scheduler.schedule(after: before.advanced(by: .seconds(10))) {}
    #expect(scheduler.now == before)
    #expect(before == DispatchQueue.virtualEpoch)
  }

  @Test func repeatingWorkRunsOnceAndItsCancellableDoesNothing() {
    let ticks = Counter()
    let timer = DispatchQueue.immediate.schedule(
      after: DispatchQueue.virtualEpoch, interval: .seconds(1)
    ) { ticks.increment() }
    timer.cancel()
    #expect(ticks.value == 1)
  }

  @Test func nestedActionsRunAfterTheOuterOneReturnsInFIFOOrder() {
    let scheduler = DispatchQueue.immediate
    let log = Recorder<String>()
    scheduler.schedule {
      log.append("outer start")
      scheduler.schedule {
        log.append("first nested")
        scheduler.schedule { log.append("grandchild") }
      }
      scheduler.schedule { log.append("second nested") }
      log.append("outer end")
    }
    log.append("returned")
    #expect(
      log.values == [
        "outer start", "outer end", "first nested", "second nested", "grandchild", "returned",
      ])
  }

  @Test(.offTheCooperativePool) func aMillionChainedActionsCompleteWithoutGrowingTheStack() {
    final class Chain: Sendable {
      let remaining = Atomic(1_000_000)
      let ran = Atomic(0)
      let scheduler = DispatchQueue.immediate

      func step() {
        ran.add(1, ordering: .relaxed)
        if remaining.subtract(1, ordering: .relaxed).newValue > 0 {
          scheduler.schedule { self.step() }
        }
      }
    }
    let chain = Chain()
    chain.scheduler.schedule { chain.step() }
    #expect(chain.ran.load(ordering: .relaxed) == 1_000_000)
  }

  @Test func eachThreadRunsItsOwnActionsBeforeScheduleReturns() {
    let scheduler = DispatchQueue.immediate
    let ranBeforeReturn = Counter()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<1_000 {
        let ran = Counter()
        scheduler.schedule { ran.increment() }
        if ran.value == 1 { ranBeforeReturn.increment() }
      }
    }
    #expect(ranBeforeReturn.value == 8_000)
  }
}

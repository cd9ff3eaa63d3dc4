import Dispatch
import Schedulers
import Testing

@Suite("AnyScheduler")
struct AnySchedulerTests {
  @Test func forwardsEveryCallToTheWrappedScheduler() {
    let test = DispatchQueue.test
    let scheduler: AnySchedulerOf<DispatchQueue> = test.eraseToAnyScheduler()
    let log = Recorder<String>()
    scheduler.schedule { log.append("now") }
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log.append("2s") }
    let timer = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(2)
    ) {
      log.append("tick")
    }
    #expect(log.values.isEmpty)
    test.advance(by: .seconds(3))
    #expect(log.values == ["now", "tick", "2s", "tick"])
    #expect(scheduler.now == test.now)
    #expect(scheduler.minimumTolerance == .zero)
    timer.cancel()
    #expect(test.pendingActionCount == 0)
  }

  @Test func erasingAnErasedSchedulerDoesNotWrapItAgain() {
    let test = DispatchQueue.test
    let once = test.eraseToAnyScheduler()
    let twice = once.eraseToAnyScheduler()
    let log = Recorder<String>()
    twice.schedule { log.append("ran") }
    test.advance()
    #expect(log.values == ["ran"])
  }

  @Test func closureInitialiserCallsTheGivenClosures() {
    let calls = Recorder<String>()
    let scheduler = AnySchedulerOf<DispatchQueue>(
      minimumTolerance: {
        calls.append("minimumTolerance"); return .zero
      },
      now: {
        calls.append("now"); return DispatchQueue.virtualEpoch
      },
      scheduleImmediately: { _, action in
        calls.append("immediately"); action()
      },
      delayed: { _, _, _, action in
        calls.append("delayed"); action()
      },
      interval: { _, _, _, _, action in
        calls.append("interval")
        action()
        return AnyCancellable {}
      }
    )
    scheduler.schedule {}
    scheduler.schedule(after: scheduler.now) {}
    _ = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {}
    #expect(
      calls.values == [
        "immediately", "now", "minimumTolerance", "delayed", "now", "minimumTolerance", "interval",
      ])
  }

  @Test func staticMembersMakeCallSitesRead() {
    func make(_ scheduler: AnySchedulerOf<DispatchQueue>) -> AnySchedulerOf<DispatchQueue> {
      scheduler
    }
    let immediate = make(.immediate)
    let log = Recorder<String>()
    immediate.schedule { log.append("ran") }
    #expect(log.values == ["ran"])
    #expect(
      make(.main).now.dispatchTime.uptimeNanoseconds
        > DispatchQueue.virtualEpoch.dispatchTime.uptimeNanoseconds)
    _ = make(.global())
    _ = make(.mainImmediately)
  }
}

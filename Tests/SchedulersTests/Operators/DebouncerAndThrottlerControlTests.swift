import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// `cancel()`, `flush()` and `hasWaitingAction` on both callback forms, with the interval 300 ms
/// on a test scheduler.
@Suite("Debouncer and Throttler: cancel, flush, waiting")
struct DebouncerAndThrottlerControlTests {
  @Test func flushingADebouncerRunsTheWaitingActionNowAndOnlyOnce() {
    let scheduler = DispatchQueue.test
    let debouncer = Debouncer(for: .milliseconds(300), scheduler: scheduler)
    let ran = Recorder<String>()
    debouncer.call { ran.append("a") }
    debouncer.call { ran.append("b") }
    #expect(debouncer.hasWaitingAction)
    debouncer.flush()
    #expect(ran.values == ["b"])
    #expect(!debouncer.hasWaitingAction)
    #expect(scheduler.pendingActionCount == 0)  // its timer is gone
    scheduler.advance(by: .seconds(1))
    #expect(ran.values == ["b"])
    debouncer.flush()  // nothing waits: nothing runs
    #expect(ran.values == ["b"])
    // The next call starts a new interval.
    debouncer.call { ran.append("c") }
    scheduler.advance(by: .milliseconds(299))
    #expect(ran.values == ["b"])
    scheduler.advance(by: .milliseconds(1))
    #expect(ran.values == ["b", "c"])
  }

  @Test func cancellingAThrottlerDropsTheWaitingActionAndForgetsTheInterval() {
    let scheduler = DispatchQueue.test
    let throttler = Throttler(for: .milliseconds(300), scheduler: scheduler, latest: true)
    let ran = Recorder<String>()
    throttler.call { ran.append("a") }  // runs at once
    throttler.call { ran.append("b") }  // waits for the end of the interval
    #expect(ran.values == ["a"])
    #expect(throttler.hasWaitingAction)
    throttler.cancel()
    #expect(!throttler.hasWaitingAction)
    #expect(scheduler.pendingActionCount == 0)
    scheduler.advance(by: .seconds(1))
    #expect(ran.values == ["a"])
    // The interval is forgotten: the next call runs at once, even inside the old one.
    throttler.call { ran.append("c") }
    #expect(ran.values == ["a", "c"])
  }

  @Test func flushingAThrottlerRunsTheWaitingActionNowAndStartsTheNextIntervalThere() {
    let scheduler = DispatchQueue.test
    let throttler = Throttler(for: .milliseconds(300), scheduler: scheduler, latest: true)
    let ran = Recorder<String>()
    throttler.call { ran.append("a") }  // at 0
    scheduler.advance(by: .milliseconds(100))
    throttler.call { ran.append("b") }  // waits until 300
    throttler.flush()  // at 100: runs b now
    #expect(ran.values == ["a", "b"])
    #expect(!throttler.hasWaitingAction)
    #expect(scheduler.pendingActionCount == 0)
    // The interval now runs from 100: a call at 300 waits until 400.
    scheduler.advance(by: .milliseconds(200))
    throttler.call { ran.append("c") }
    #expect(ran.values == ["a", "b"])
    scheduler.advance(by: .milliseconds(99))
    #expect(ran.values == ["a", "b"])
    scheduler.advance(by: .milliseconds(1))
    #expect(ran.values == ["a", "b", "c"])
  }

  @Test func aThrottlerWithNothingWaitingHasNothingToFlush() {
    let scheduler = DispatchQueue.test
    let throttler = Throttler(for: .milliseconds(300), scheduler: scheduler, latest: false)
    let ran = Recorder<String>()
    #expect(!throttler.hasWaitingAction)
    throttler.flush()
    throttler.call { ran.append("a") }
    #expect(!throttler.hasWaitingAction)  // ran at once, nothing waits
    throttler.flush()
    #expect(ran.values == ["a"])
  }

  // MARK: Edges

  /// The callback form follows the sequence's tables (RxJS 7's `throttleTime`, 400 ms).
  @Test(
    arguments: [
      (ThrottleEdges.leading, "-a-x-y----b---x-cx---", "-a--------b-----c----"),
      (.trailing, "-a-xy-----b--x--cxxx--", "-----y--------x---x---x"),
      (.both, "-a-xy-----b--x--cxxx--", "-a---y----b---x---x---x"),
    ])
  func throttlerEdges(edges: ThrottleEdges, input: String, expected: String) throws {
    try expectCallbackMarbles(input: input, expected: expected, frame: .milliseconds(100)) {
      scheduler, output in
      let throttler = Throttler(for: .milliseconds(400), scheduler: scheduler, edges: edges)
      return { event in
        if case .value(let value) = event { throttler.call { output.send(value) } }
      }
    }
  }

  @Test func aLeadingThrottlerDropsTheCallsInsideItsWindowAndHasNothingWaiting() {
    let scheduler = DispatchQueue.test
    let throttler = Throttler(for: .milliseconds(300), scheduler: scheduler, edges: .leading)
    let ran = Recorder<String>()
    throttler.call { ran.append("a") }  // at once
    throttler.call { ran.append("b") }  // dropped
    #expect(ran.values == ["a"])
    #expect(!throttler.hasWaitingAction)  // the window's timer runs, but nothing waits on it
    throttler.flush()  // nothing to run
    scheduler.advance(by: .milliseconds(299))
    throttler.call { ran.append("c") }  // still inside the window: dropped
    scheduler.advance(by: .milliseconds(1))
    throttler.call { ran.append("d") }  // the window closed at 300: d opens the next
    #expect(ran.values == ["a", "d"])
  }

  @Test func flushingATrailingThrottlerRunsTheHeldActionAndOpensAWindowThere() {
    let scheduler = DispatchQueue.test
    let throttler = Throttler(for: .milliseconds(300), scheduler: scheduler, edges: .trailing)
    let ran = Recorder<String>()
    throttler.call { ran.append("a") }  // held until 300
    #expect(ran.values.isEmpty)
    #expect(throttler.hasWaitingAction)
    scheduler.advance(by: .milliseconds(100))
    throttler.flush()  // at 100: a runs; a window runs until 400
    #expect(ran.values == ["a"])
    #expect(!throttler.hasWaitingAction)
    throttler.call { ran.append("b") }  // held for the end of that window
    scheduler.advance(by: .milliseconds(299))
    #expect(ran.values == ["a"])
    scheduler.advance(by: .milliseconds(1))
    #expect(ran.values == ["a", "b"])
  }

  /// The callback form can end: a finish flushes the debouncer, then finishes the output.
  @Test func aCallbackMarbleTestCanFinish() throws {
    try expectCallbackMarbles(
      input: "ab---c|", expected: "----b-(c|)", frame: .milliseconds(100)
    ) { scheduler, output in
      let debouncer = Debouncer(for: .milliseconds(300), scheduler: scheduler)
      return { event in
        switch event {
        case .value(let value): debouncer.call { output.send(value) }
        case .finished:
          debouncer.flush()
          output.finish()
        case .failed(let error): output.fail(error)
        }
      }
    }
  }
}

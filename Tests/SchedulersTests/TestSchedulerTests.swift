import Dispatch
import Schedulers
import Testing

@Suite("TestScheduler semantics")
struct TestSchedulerTests {
  typealias Time = DispatchQueue.SchedulerTimeType

  @Test func nothingRunsUntilTheClockReachesTheDeadline() {
    let scheduler = DispatchQueue.test
    let log = Recorder<String>()
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { log.append("fired") }

    scheduler.advance(by: .seconds(9))
    #expect(log.values.isEmpty)
    #expect(scheduler.pendingActionCount == 1)

    scheduler.advance(by: .seconds(1))
    #expect(log.values == ["fired"])
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func sameDeadlineRunsInSchedulingOrder() {
    let scheduler = DispatchQueue.test
    let log = Recorder<Int>()
    let deadline = scheduler.now.advanced(by: .seconds(1))
    for index in 0..<100 {
      scheduler.schedule(after: deadline) { log.append(index) }
    }
    scheduler.advance(by: .seconds(1))
    #expect(log.values == Array(0..<100))
  }

  @Test func sameDeadlineStaysFIFOWhenScheduledFromInsideActions() {
    let scheduler = DispatchQueue.test
    let log = Recorder<String>()
    let now = scheduler.now
    scheduler.schedule {
      log.append("a")
      scheduler.schedule { log.append("c") }
      scheduler.schedule(after: now) { log.append("d") }
    }
    scheduler.schedule { log.append("b") }
    scheduler.advance()
    #expect(log.values == ["a", "b", "c", "d"])
  }

  @Test func immediateWorkWaitsForAnAdvance() {
    let scheduler = DispatchQueue.test
    let log = Recorder<String>()
    scheduler.schedule { log.append("ran") }
    #expect(log.values.isEmpty)
    scheduler.advance()
    #expect(log.values == ["ran"])
  }

  @Test func nowEqualsTheDeadlineWhileAnActionRuns() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let seen = Recorder<Time>()
    for seconds in [3, 1, 2] {
      scheduler.schedule(after: start.advanced(by: .seconds(seconds))) {
        seen.append(scheduler.now)
      }
    }
    scheduler.advance(by: .seconds(5))
    #expect(seen.values == [1, 2, 3].map { start.advanced(by: .seconds($0)) })
    #expect(scheduler.now == start.advanced(by: .seconds(5)))
  }

  @Test func advanceToSetsNowToTheTarget() {
    let scheduler = DispatchQueue.test
    let target = scheduler.now.advanced(by: .milliseconds(1_500))
    scheduler.advance(to: target)
    #expect(scheduler.now == target)
  }

  @Test func advanceToAPastInstantRunsWhatIsDueAndLeavesNow() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    scheduler.advance(by: .seconds(10))
    let log = Recorder<String>()
    scheduler.schedule { log.append("due") }
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("future") }

    scheduler.advance(to: start)
    #expect(log.values == ["due"])
    #expect(scheduler.now == start.advanced(by: .seconds(10)))
  }

  @Test func anActionScheduledInThePastRunsAtTheCurrentTime() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    scheduler.advance(by: .seconds(5))
    let seen = Recorder<Time>()
    scheduler.schedule(after: start) { seen.append(scheduler.now) }
    #expect(seen.values.isEmpty)

    scheduler.advance(by: .zero)
    #expect(seen.values == [start.advanced(by: .seconds(5))])
    #expect(scheduler.now == start.advanced(by: .seconds(5)))
  }

  @Test func workScheduledDuringAnAdvanceInsideTheRangeRunsInTheSameAdvance() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let log = Recorder<String>()
    scheduler.schedule(after: start.advanced(by: .seconds(1))) {
      log.append("1s")
      scheduler.schedule(after: start.advanced(by: .seconds(3))) { log.append("3s (nested)") }
      scheduler.schedule(after: start.advanced(by: .seconds(2))) { log.append("2s (nested)") }
      scheduler.schedule(after: start.advanced(by: .seconds(20))) { log.append("20s (nested)") }
    }
    scheduler.schedule(after: start.advanced(by: .milliseconds(2_500))) { log.append("2.5s") }

    scheduler.advance(by: .seconds(10))
    #expect(log.values == ["1s", "2s (nested)", "2.5s", "3s (nested)"])
    #expect(scheduler.pendingActionCount == 1)
  }

  @Test func repeatingWorkFiresAtEachInterval() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let seen = Recorder<Time>()
    let timer = scheduler.schedule(
      after: start.advanced(by: .seconds(1)), interval: .seconds(2)
    ) { seen.append(scheduler.now) }

    scheduler.advance(by: .seconds(6))
    #expect(seen.values == [1, 3, 5].map { start.advanced(by: .seconds($0)) })
    timer.cancel()
    scheduler.advance(by: .seconds(10))
    #expect(seen.count == 3)
    #expect(scheduler.pendingActionCount == 0)
  }

  /// combine-schedulers' `testTwoIntervalOrdering`: ticks due at the same instant run in the
  /// order their timers were first scheduled, every tick (ordered by when each tick was
  /// queued, the 3 s timer's tick, queued at 3 s, would run before the 2 s timer's, queued at
  /// 4 s: 1, 2, 1, 2, 1).
  @Test func repeatingWorkDueAtTheSameInstantRunsInTheOrderFirstScheduled() {
    let scheduler = DispatchQueue.test
    let log = Recorder<Int>()
    let first = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(2)), interval: .seconds(2)
    ) {
      log.append(1)
    }
    let second = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(3)), interval: .seconds(3)
    ) {
      log.append(2)
    }
    scheduler.advance(by: .seconds(6))
    #expect(log.values == [1, 2, 1, 1, 2])
    // A one-shot action due at the same instant, scheduled after both timers, runs after them.
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(6))) { log.append(3) }
    scheduler.advance(by: .seconds(6))
    #expect(log.values == [1, 2, 1, 1, 2, 1, 2, 1, 1, 2, 3])
    first.cancel()
    second.cancel()
  }

  @Test func repeatingWorkCanCancelItselfFromItsOwnAction() {
    let scheduler = DispatchQueue.test
    let ticks = Counter()
    let holder = Recorder<SendableCancellable>()
    let timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
      ticks.increment()
      if ticks.value == 3 { holder.values.first?.cancel() }
    }
    holder.append(SendableCancellable(timer))
    scheduler.advance(by: .seconds(100))
    #expect(ticks.value == 3)
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func aCancelledActionNeverRunsEvenWhenDueAtTheSameInstantAsItsCanceller() {
    let scheduler = DispatchQueue.test
    let deadline = scheduler.now.advanced(by: .seconds(1))
    let log = Recorder<String>()
    let holder = Recorder<SendableCancellable>()
    scheduler.schedule(after: deadline) {
      log.append("canceller")
      holder.values.first?.cancel()
    }
    holder.append(
      SendableCancellable(
        scheduler.schedule(after: deadline, interval: .seconds(1)) { log.append("cancelled") }))
    scheduler.advance(by: .seconds(5))
    #expect(log.values == ["canceller"])
  }

  @Test func cancellingReleasesTheActionAtOnce() {
    let scheduler = DispatchQueue.test
    final class Token: Sendable {}
    weak var weakToken: Token?
    let timer: any Cancellable
    do {
      let token = Token()
      weakToken = token
      timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { _ = token }
    }
    #expect(weakToken != nil)
    timer.cancel()
    #expect(weakToken == nil)
  }

  @Test(arguments: [false, true])
  func releasingARepeatingActionsCancellableStopsItAndReleasesItsClosure(erased: Bool) {
    let test = DispatchQueue.test
    let scheduler: AnySchedulerOf<DispatchQueue>? = erased ? test.eraseToAnyScheduler() : nil
    final class Token: Sendable {}
    weak var weakToken: Token?
    let ticks = Counter()
    do {
      let token = Token()
      weakToken = token
      let tick: @Sendable () -> Void = {
        _ = token
        ticks.increment()
      }
      let timer =
        scheduler?.schedule(after: test.now, interval: .seconds(1), tick)
        ?? test.schedule(after: test.now, interval: .seconds(1), tick)
      test.advance(by: .seconds(1))
      #expect(ticks.value == 2)
      _ = timer
    }
    #expect(weakToken == nil)
    #expect(test.pendingActionCount == 0)
    test.advance(by: .seconds(5))
    #expect(ticks.value == 2)
  }

  @Test func cancellingTwiceOrAfterTheSchedulerIsGoneDoesNothing() {
    var scheduler: TestSchedulerOf<DispatchQueue>? = DispatchQueue.test
    let timer = scheduler!.schedule(after: scheduler!.now, interval: .seconds(1)) {}
    timer.cancel()
    timer.cancel()
    let other = scheduler!.schedule(after: scheduler!.now, interval: .seconds(1)) {}
    scheduler = nil
    other.cancel()
  }

  @Test func aPendingTimerDoesNotKeepItsSchedulerAlive() {
    weak var weakScheduler: TestSchedulerOf<DispatchQueue>?
    var timer: (any Cancellable)?
    do {
      let scheduler = DispatchQueue.test
      weakScheduler = scheduler
      timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {}
    }
    #expect(weakScheduler == nil)
    timer?.cancel()
  }

  @Test func cancellingOneOfManyKeepsTheOthersInOrder() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let log = Recorder<Int>()
    var timers: [any Cancellable] = []
    for index in 0..<50 {
      timers.append(
        scheduler.schedule(
          after: start.advanced(by: .milliseconds((index * 37) % 50)), interval: .seconds(100)
        ) { log.append(index) })
    }
    for index in stride(from: 0, to: 50, by: 3) { timers[index].cancel() }
    #expect(scheduler.pendingActionCount == 50 - 17)
    scheduler.advance(by: .seconds(1))
    let expected = (0..<50).filter { $0 % 3 != 0 }.sorted { ($0 * 37) % 50 < ($1 * 37) % 50 }
    #expect(log.values == expected)
  }

  /// From 32,768 pending actions on, an advance over most of them sorts the due ones at once
  /// rather than popping them one at a time (docs/test-scheduler.md). The order must stay the
  /// heap's: deadline, then scheduling order, with cancellations and work scheduled meanwhile
  /// (before, among and after the sorted ones) in their places.
  @Test(.offTheCooperativePool) func aLargeQueueMostlyDueRunsInDeadlineThenSchedulingOrder() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let log = Recorder<Int>()
    var random = SplitMix64(seed: 15)
    // (deadline in ms, scheduling order, id) of every action that should run.
    var expected: [(ms: Int, order: Int, id: Int)] = []
    let cancelled = CancellableList()
    for id in 0..<50_000 {
      // 1...1,000 ms: ties at every deadline.
      let ms = 1 + Int(random.next() % 1_000)
      let deadline = start.advanced(by: .milliseconds(ms))
      if id % 7 == 0 {
        let cancellable = scheduler.scheduleCancellable(
          after: deadline, tolerance: .zero, options: nil
        ) { log.append(id) }
        cancelled.all.append(cancellable)
      } else {
        scheduler.schedule(after: deadline) { log.append(id) }
        expected.append((ms, id, id))
      }
    }
    // The first action to run cancels a seventh of the rest and schedules more at random
    // deadlines, after all of the others in scheduling order.
    let late = (0..<2_000).map { _ in 1 + Int(random.next() % 1_000) }
    scheduler.schedule(after: start) {
      for cancellable in cancelled.all { cancellable.cancel() }
      for (offset, ms) in late.enumerated() {
        let id = 100_000 + offset
        scheduler.schedule(after: start.advanced(by: .milliseconds(ms))) { log.append(id) }
      }
    }
    expected += late.enumerated().map { (ms: $1, order: 100_000 + $0, id: 100_000 + $0) }
    expected.sort { ($0.ms, $0.order) < ($1.ms, $1.order) }

    scheduler.advance(to: start.advanced(by: .milliseconds(900)))
    let firstPart = expected.prefix { $0.ms <= 900 }.map(\.id)
    #expect(log.values == firstPart)
    scheduler.run()
    #expect(log.values == expected.map(\.id))
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func introspectionReportsPendingWorkAndTheNextDeadline() {
    let scheduler = DispatchQueue.test
    #expect(scheduler.nextDeadline == nil)
    let start = scheduler.now
    scheduler.schedule(after: start.advanced(by: .seconds(5))) {}
    scheduler.schedule(after: start.advanced(by: .seconds(2))) {}
    #expect(scheduler.pendingActionCount == 2)
    #expect(scheduler.nextDeadline == start.advanced(by: .seconds(2)))
  }

  @Test func runDrainsAllWorkAndStopsTheClockAtTheLastDeadline() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let log = Recorder<Int>()
    for seconds in [30, 10, 20] {
      scheduler.schedule(after: start.advanced(by: .seconds(seconds))) { log.append(seconds) }
    }
    let ran = scheduler.run()
    #expect(ran == 3)
    #expect(log.values == [10, 20, 30])
    #expect(scheduler.now == start.advanced(by: .seconds(30)))
  }

  @Test func runOnEndlessWorkStopsAtItsBoundAndFailsTheTest() {
    let scheduler = DispatchQueue.test
    let ticks = Counter()
    let timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
      ticks.increment()
    }
    withKnownIssue {
      scheduler.run(maxActions: 1_000)
    } matching: { issue in
      issue.description.contains("stopped after 1000 actions with 1 still pending")
    }
    #expect(ticks.value == 1_000)
    timer.cancel()
  }

  @Test(.offTheCooperativePool) func theSchedulerIsUsableFromManyThreadsWhileOneAdvances() {
    let scheduler = DispatchQueue.test
    let ran = Counter()
    let threads = 4
    let perThread = 2_000
    DispatchQueue.concurrentPerform(iterations: threads + 1) { index in
      if index == threads {
        for _ in 0..<200 { scheduler.advance(by: .milliseconds(1)) }
      } else {
        for offset in 0..<perThread {
          scheduler.schedule(after: scheduler.now.advanced(by: .nanoseconds(offset))) {
            ran.increment()
          }
        }
      }
    }
    scheduler.run()
    #expect(ran.value == threads * perThread)
  }

  @Test func genericTimeTypesWork() {
    let scheduler = TestScheduler<Int, Never>(now: 0)
    let log = Recorder<Int>()
    scheduler.schedule(after: 5) { log.append(scheduler.now) }
    scheduler.advance(by: 10)
    #expect(log.values == [5])
    #expect(scheduler.now == 10)
  }
}

// Whole seconds as Int: the smallest time type a user might bring, to prove the generics hold.
#if canImport(Combine)
  extension Int: @retroactive SchedulerTimeIntervalConvertible {}
#else
  extension Int: SchedulerTimeIntervalConvertible {}
#endif

extension Int {
  public static func seconds(_ s: Int) -> Int { s }
  public static func seconds(_ s: Double) -> Int { Int(s) }
  public static func milliseconds(_ ms: Int) -> Int { ms / 1_000 }
  public static func microseconds(_ us: Int) -> Int { us / 1_000_000 }
  public static func nanoseconds(_ ns: Int) -> Int { ns / 1_000_000_000 }
  public init(_ duration: Duration) { self = Int(duration.components.seconds) }
  public var duration: Duration { .seconds(self) }
}

/// Cancellables that one action cancels. `@unchecked Sendable`: scheduling and the advance
/// that runs the action happen on one thread. (Not a `Recorder`: where Combine is imported,
/// its `AnyCancellable` is not `Sendable`.)
final class CancellableList: @unchecked Sendable {
  var all: [any Cancellable] = []
}

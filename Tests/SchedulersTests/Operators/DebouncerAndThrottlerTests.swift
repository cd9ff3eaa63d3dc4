import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// The callback forms, in marbles (one frame is 100 ms, the interval 300 ms), with the same
/// timing as the sequence operators, and their life cycle.
@Suite("Debouncer and Throttler")
struct DebouncerAndThrottlerTests {
  static let frame = DispatchQueue.SchedulerTimeType.Stride.milliseconds(100)

  /// Feeds each input element to `call` (these tables have no end; `aCallbackMarbleTestCanFinish`
  /// shows a finish mapped to `flush()` and `output.finish()`).
  static func elements(
    _ call: @escaping @Sendable (String) -> Void
  ) -> @Sendable (MarbleEvent<String>) -> Void {
    { event in if case .value(let value) = event { call(value) } }
  }

  @Test(
    arguments: [
      ("abcd----e---f-g----", "------d----e-----g"),
      ("a----b----", "---a----b"),
      ("abcdefgh", "----------h"),
      ("a--b----", "------b"),
      ("(ab)------", "---b"),
    ])
  func debouncer(input: String, expected: String) throws {
    try expectCallbackMarbles(input: input, expected: expected, frame: Self.frame) {
      scheduler, output in
      let debouncer = Debouncer(for: .milliseconds(300), scheduler: scheduler)
      return Self.elements { value in debouncer.call { output.send(value) } }
    }
  }

  @Test(
    arguments: [
      (true, "abcd----e---f-g----", "a--d----e---f--g"),
      (false, "abcd----e---f-g----", "a--b----e---f--g"),
      (true, "abcdefgh", "a--d--g--h"),
      (false, "abcdefgh", "a--b--e--h"),
      (true, "a--b--c", "a--b--c"),
      (true, "(abc)---", "a--c"),
    ])
  func throttler(latest: Bool, input: String, expected: String) throws {
    try expectCallbackMarbles(input: input, expected: expected, frame: Self.frame) {
      scheduler, output in
      let throttler = Throttler(for: .milliseconds(300), scheduler: scheduler, latest: latest)
      return Self.elements { value in throttler.call { output.send(value) } }
    }
  }

  @Test func releasingADebouncerCancelsItsWaitingAction() {
    let scheduler = DispatchQueue.test
    let ran = Counter()
    var debouncer: Debouncer? = Debouncer(for: .seconds(1), scheduler: scheduler)
    debouncer?.call { ran.increment() }
    #expect(debouncer?.hasWaitingAction == true)
    #expect(scheduler.pendingActionCount == 1)
    debouncer = nil
    #expect(scheduler.pendingActionCount == 0)
    scheduler.advance(by: .seconds(2))
    #expect(ran.value == 0)
  }

  @Test func cancellingADebouncerDropsTheWaitingActionOnly() {
    let scheduler = DispatchQueue.test
    let ran = Recorder<Int>()
    let debouncer = Debouncer(for: .seconds(1), scheduler: scheduler)
    debouncer.call { ran.append(1) }
    debouncer.cancel()
    #expect(!debouncer.hasWaitingAction)
    scheduler.advance(by: .seconds(2))
    debouncer.call { ran.append(2) }
    scheduler.advance(by: .seconds(1))
    #expect(ran.values == [2])
  }

  @Test func releasingAThrottlerCancelsItsWaitingAction() {
    let scheduler = DispatchQueue.test
    let ran = Recorder<Int>()
    var throttler: Throttler? = Throttler(for: .seconds(1), scheduler: scheduler, latest: true)
    throttler?.call { ran.append(1) }
    throttler?.call { ran.append(2) }
    #expect(ran.values == [1])
    #expect(scheduler.pendingActionCount == 1)
    throttler = nil
    #expect(scheduler.pendingActionCount == 0)
    scheduler.advance(by: .seconds(2))
    #expect(ran.values == [1])
  }

  @Test func onTheImmediateSchedulerEveryCallRuns() {
    // Time never moves on an immediate scheduler, so every timer is due at once.
    let ran = Recorder<Int>()
    let debouncer = Debouncer(for: .seconds(1), scheduler: DispatchQueue.immediate)
    let throttler = Throttler(for: .seconds(1), scheduler: DispatchQueue.immediate, latest: true)
    for value in 1...3 {
      debouncer.call { ran.append(value) }
      throttler.call { ran.append(value * 10) }
    }
    #expect(ran.values == [1, 10, 2, 20, 3, 30])
  }

  @MainActor @Test func mainActorActionsRunOnTheMainActor() {
    final class Model {
      var searches: [String] = []
      var refreshes = 0
    }
    let scheduler = DispatchQueue.test
    let model = Model()
    let debouncer = Debouncer(for: .milliseconds(300), scheduler: scheduler)
    let throttler = Throttler(for: .seconds(1), scheduler: scheduler, latest: true)
    for query in ["a", "ab", "abc"] {
      debouncer.call { @MainActor in model.searches.append(query) }
      throttler.call { @MainActor in model.refreshes += 1 }
      scheduler.advance(by: .milliseconds(100))
    }
    #expect(model.refreshes == 1)
    scheduler.advance(by: .seconds(1))
    #expect(model.searches == ["abc"])
    #expect(model.refreshes == 2)
  }

  @Test func callsFromManyThreadsLeaveOneWaitingAction() async {
    let scheduler = DispatchQueue.test
    let ran = Counter()
    let debouncer = Debouncer(for: .seconds(1), scheduler: scheduler)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { for _ in 0..<1_000 { debouncer.call { ran.increment() } } }
      }
    }
    #expect(scheduler.pendingActionCount == 1)
    await scheduler.advance(by: .seconds(1))
    #expect(ran.value == 1)
  }
}

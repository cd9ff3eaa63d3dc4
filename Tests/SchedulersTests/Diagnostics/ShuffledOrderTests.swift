import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// Shuffling actions due at the same instant, reproducibly.
@Suite("Shuffled same-instant order")
struct ShuffledOrderTests {
  /// The order in which ten actions due at one instant run, under `order`.
  static func runOrder(_ order: SameInstantOrder) -> [Int] {
    let scheduler = DispatchQueue.test(order: order)
    let log = Recorder<Int>()
    for index in 0..<10 {
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append(index) }
    }
    scheduler.advance(by: .seconds(1))
    return log.values
  }

  @Test func theSameSeedGivesTheSameOrderAndDifferentSeedsDiffer() {
    let first = Self.runOrder(.shuffled(seed: 1))
    #expect(Self.runOrder(.shuffled(seed: 1)) == first)
    #expect(first.sorted() == Array(0..<10))
    let orders = Set((0..<20).map { Self.runOrder(.shuffled(seed: UInt64($0))) })
    #expect(orders.count > 1)
    #expect(orders.contains { $0 != Array(0..<10) })
    #expect(Self.runOrder(.firstInFirstOut) == Array(0..<10))
  }

  /// `SameInstantOrder.shuffled` alone compiles wherever an order is expected (a static
  /// property beside the case `shuffled(seed:)` would make it "ambiguous use of 'shuffled'").
  @Test func shuffledAloneIsAnOrderWhereverOneIsExpected() {
    let spelledOut = SameInstantOrder.shuffled
    let annotated: SameInstantOrder = .shuffled
    let orders: [SameInstantOrder] = [.firstInFirstOut, .shuffled, .shuffled(seed: 7)]
    #expect(spelledOut == annotated)
    #expect(orders.map(\.seed) == [nil, spelledOut.seed, 7])
    #expect(orders.map(\.description) == ["firstInFirstOut", "\(spelledOut)", "shuffled(seed: 7)"])
    #expect(DispatchQueue.test(order: .shuffled).order == spelledOut)
  }

  /// Only `.shuffled` writes its (process-wide) seed to standard error, once: a scheduler
  /// given its seed writes nothing, so a loop over 100 seeds does not write 100 lines.
  @Test(.exitTestOffThePool) func theSeedIsWrittenOncePerProcessNotOncePerScheduler() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      for seed in 0..<100 { _ = DispatchQueue.test(order: .shuffled(seed: UInt64(seed))) }
      for _ in 0..<100 { _ = DispatchQueue.test(order: .shuffled) }
    }
    let lines = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      .split(separator: "\n").filter { $0.contains("seed") }
    #expect(lines.count == 1)
    #expect(lines.first?.contains("reproduce with SCHEDULERS_SHUFFLE_SEED=") == true)
  }

  @Test func aShuffledSchedulersFailureNamesItsSeed() {
    let scheduler = DispatchQueue.test(order: .shuffled(seed: 7))
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {}
    withKnownIssue {
      scheduler.expectNoPendingWork()
    } matching: { issue in
      issue.description.contains("shuffled by seed 7")
        && issue.description.contains("`order: .shuffled(seed: 7)`")
    }
    #expect(scheduler.pendingWorkDescription?.contains("shuffled by seed 7") == true)
  }

  @Test func deadlinesStillComeFirst() {
    let scheduler = DispatchQueue.test(order: .shuffled(seed: 3))
    let log = Recorder<String>()
    for index in 0..<5 {
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) {
        log.append("late\(index)")
      }
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
        log.append("early\(index)")
      }
    }
    scheduler.advance(by: .seconds(2))
    #expect(log.values.prefix(5).allSatisfy { $0.hasPrefix("early") })
    #expect(log.values.suffix(5).allSatisfy { $0.hasPrefix("late") })
  }

  @Test func aTestThatDependsOnSameInstantOrderIsCaughtWithItsSeed() {
    var failingSeed: UInt64?
    withKnownIssue {
      failingSeed = forEachShuffledOrder(seeds: 0..<50) { scheduler in
        // Code that silently relies on FIFO between two timers due at the same instant.
        let log = Recorder<String>()
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("news") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("weather") }
        scheduler.advance(by: .seconds(1))
        try #require(log.values == ["news", "weather"])
      }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("shuffled by seed") && text.contains(".shuffled(seed:")
        || issue.description.contains("news")
    }
    #expect(failingSeed != nil)
    let seed = failingSeed
    if let seed {
      let scheduler = DispatchQueue.test(order: .shuffled(seed: seed))
      let log = Recorder<String>()
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("news") }
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("weather") }
      scheduler.advance(by: .seconds(1))
      #expect(log.values == ["weather", "news"])
    }
  }

  @Test func anOrderIndependentTestPassesEverySeed() {
    let failing = forEachShuffledOrder(seeds: 0..<50) { scheduler in
      let log = Recorder<String>()
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("news") }
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("weather") }
      scheduler.advance(by: .seconds(1))
      try #require(Set(log.values) == ["news", "weather"])
    }
    #expect(failing == nil)
  }
}

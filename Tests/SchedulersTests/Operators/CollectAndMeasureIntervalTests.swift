import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// Every letter of `marbles`, standing for itself.
private func letters(_ marbles: String) -> [Character: String] {
  Dictionary(
    marbles.filter(\.isLetter).map { ($0, String($0)) }, uniquingKeysWith: { first, _ in first })
}

extension OperatorMarbleTables {
  /// `collect(.byTime)` and `collect(.byTimeOrCount)` in marbles: one frame is 100 ms, a window
  /// 300 ms.
  @Suite("collect(_:) by time, and by time or count")
  struct CollectTests {
    static let frame = DispatchQueue.SchedulerTimeType.Stride.milliseconds(100)

    @Test(
      arguments: [
        // Windows [0, 3), [3, 6), [6, 9), [9, 12): each emits its elements as it closes; the
        // empty one emits nothing; the finish emits the open window, then finishes.
        ("abc-d----e|", "---x--y---(z|)", ["x": ["a", "b", "c"], "y": ["d"], "z": ["e"]]),
        // An element at the instant a window closes opens the next one.
        ("a--b--|", "---x--(y|)", ["x": ["a"], "y": ["b"]]),
        // Nothing arrives: nothing is emitted, not even an empty array.
        ("-------|", "-------|", [:]),
        // A failure drops the open window.
        ("ab-c#", "---x#", ["x": ["a", "b"]]),
        // A slow upstream: one element per window, at the window's end.
        ("a-----b-----|", "---x-----y--|", ["x": ["a"], "y": ["b"]]),
        // Simultaneous elements share a window.
        ("(abc)|", "---x-|", ["x": ["a", "b", "c"]]),
      ] as [(String, String, [Character: [String]])])
    func byTime(input: String, expected: String, batches: [Character: [String]]) async throws {
      try await expectMarbles(
        input: input, expected: expected, frame: Self.frame, values: letters(input),
        expectedValues: batches
      ) { input, scheduler in
        input.collect(.byTime(scheduler, .milliseconds(300)))
      }
    }

    @Test(
      arguments: [
        // Two elements close a window at once, and the next window starts there.
        ("abcd-e---|", "-x-y--z--|", ["x": ["a", "b"], "y": ["c", "d"], "z": ["e"]]),
        // Under the count, windows close by time, as with `.byTime`.
        ("a--b--|", "---x--(y|)", ["x": ["a"], "y": ["b"]]),
        // A full window at the finish goes out before it.
        ("a(b|)", "-(x|)", ["x": ["a", "b"]]),
      ] as [(String, String, [Character: [String]])])
    func byTimeOrCount(input: String, expected: String, batches: [Character: [String]])
      async throws
    {
      try await expectMarbles(
        input: input, expected: expected, frame: Self.frame, values: letters(input),
        expectedValues: batches
      ) { input, scheduler in
        input.collect(.byTimeOrCount(scheduler, .milliseconds(300), 2))
      }
    }

    @Test func aQuietUpstreamLeavesNothingPending() async throws {
      let scheduler = DispatchQueue.test
      try await withDeterministicExecution(scheduler: scheduler) {
        let (upstream, continuation) = AsyncStream<Int>.makeStream()
        let consumer = Task {
          var batches: [[Int]] = []
          for await batch in upstream.collect(.byTime(scheduler, .seconds(1))) {
            batches.append(batch)
          }
          return batches
        }
        await scheduler.advance(by: .seconds(10))
        #expect(scheduler.pendingActionCount == 0)  // no timer ticks through empty windows
        // 10 s is the end of the tenth window: 1 and 2 fall in the eleventh, [10 s, 11 s).
        continuation.yield(1)
        continuation.yield(2)
        await scheduler.advance(by: .milliseconds(999))
        #expect(scheduler.pendingActionCount == 1)
        continuation.finish()
        await scheduler.advance()
        #expect(await consumer.value == [[1, 2]])
      }
    }

    @Test func windowsStayOnTheirGridAfterALongQuiet() async throws {
      let scheduler = DispatchQueue.test
      let start = scheduler.now
      try await withDeterministicExecution(scheduler: scheduler) {
        let (upstream, continuation) = AsyncStream<Int>.makeStream()
        let consumer = Task {
          var closes: [Int] = []
          for await _ in upstream.collect(.byTime(scheduler, .seconds(1))) {
            closes.append(Int(start.distance(to: scheduler.now).magnitude / 1_000_000))
          }
          return closes
        }
        await scheduler.advance(by: .milliseconds(1_000_250))  // 1,000 windows and a quarter
        continuation.yield(1)
        await scheduler.advance(by: .seconds(1))
        continuation.finish()
        await scheduler.advance()
        // The window 1,000,250 ms falls in closes at 1,001,000 ms, on the grid.
        #expect(await consumer.value == [1_001_000])
      }
    }

    @Test func onTheImmediateSchedulerEachElementIsItsOwnBatch() async {
      let upstream = AsyncStream<Int> { continuation in
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
      }
      var batches: [[Int]] = []
      for await batch in upstream.collect(.byTime(DispatchQueue.immediate, .seconds(1))) {
        batches.append(batch)
      }
      #expect(batches == [[1], [2], [3]])
    }

    @Test func cancellingMidWindowReleasesEverything() async throws {
      try await expectCancellationMidIntervalReleasesEverything { upstream, scheduler in
        upstream.collect(.byTime(scheduler, .seconds(1))).map { $0.count }
      }
    }
  }

  /// `measureInterval(using:)` in marbles: one frame is 100 ms.
  @Suite("measureInterval(using:)")
  struct MeasureIntervalTests {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    @Test(
      arguments: [
        (
          "-a--b(cd)-|", "-w--x(yz)-|",
          ["w": .milliseconds(100), "x": .milliseconds(300), "y": .milliseconds(100), "z": .zero]
        ),
        // The first element is measured from the start of the iteration.
        ("a|", "w|", ["w": .zero]),
        ("--#", "--#", [:]),
      ] as [(String, String, [Character: Stride])])
    func measures(input: String, expected: String, intervals: [Character: Stride]) async throws {
      try await expectMarbles(
        input: input, expected: expected, frame: .milliseconds(100), values: letters(input),
        expectedValues: intervals
      ) { input, scheduler in
        input.measureInterval(using: scheduler)
      }
    }

    @Test func aSlowConsumerDoesNotLengthenTheIntervals() async throws {
      let scheduler = DispatchQueue.test
      try await withDeterministicExecution(scheduler: scheduler) {
        let (upstream, continuation) = AsyncStream<Int>.makeStream()
        let consumer = Task {
          var intervals: [Stride] = []
          for await interval in upstream.measureInterval(using: scheduler) {
            intervals.append(interval)
            try? await scheduler.sleep(for: .seconds(5))  // a slow consumer
          }
          return intervals
        }
        await scheduler.advance(by: .seconds(1))
        continuation.yield(1)
        await scheduler.advance(by: .seconds(1))
        continuation.yield(2)
        continuation.finish()
        await scheduler.advance(by: .seconds(10))
        #expect(await consumer.value == [.seconds(1), .seconds(1)])
      }
    }

    @Test func onTheImmediateSchedulerEveryIntervalIsZero() async {
      let upstream = AsyncStream<Int> { continuation in
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish()
      }
      var intervals: [Stride] = []
      for await interval in upstream.measureInterval(using: DispatchQueue.immediate) {
        intervals.append(interval)
      }
      #expect(intervals == [.zero, .zero])
    }
  }
}

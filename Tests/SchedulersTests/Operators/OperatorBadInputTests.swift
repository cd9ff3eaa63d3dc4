import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// Bad input and misuse stop the process with a message naming the operator and the problem,
/// proved in a child process.
@Suite("Operators: bad input stops with a message naming the problem")
struct OperatorBadInputTests {
  @Test(.exitTestOffThePool) func negativeDebounce() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AsyncStream<Int> { _ in }.debounce(for: .seconds(-1), scheduler: DispatchQueue.test)
    }
    expectStandardError(
      of: result, toContain: "debounce(for:scheduler:) needs an interval of zero or more, got -1 s")
  }

  @Test(.exitTestOffThePool) func negativeThrottle() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AsyncStream<Int> { _ in }.throttle(
        for: .milliseconds(-5), scheduler: DispatchQueue.test, latest: true)
    }
    expectStandardError(
      of: result,
      toContain: "throttle(for:scheduler:latest:) needs an interval of zero or more, got -5 ms")
  }

  @Test(.exitTestOffThePool) func negativeDelay() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AsyncStream<Int> { _ in }.delay(for: .seconds(-2), scheduler: DispatchQueue.test)
    }
    expectStandardError(
      of: result, toContain: "delay(for:scheduler:) needs an interval of zero or more, got -2 s")
  }

  @Test(.exitTestOffThePool) func negativeTimeout() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AsyncStream<Int> { _ in }.timeout(.seconds(-3), scheduler: DispatchQueue.test)
    }
    expectStandardError(
      of: result, toContain: "timeout(_:scheduler:) needs an interval of zero or more, got -3 s")
  }

  @Test(.exitTestOffThePool) func negativeDebouncerAndThrottler() async {
    let debouncer = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = Debouncer(for: .seconds(-1), scheduler: DispatchQueue.test)
    }
    expectStandardError(
      of: debouncer, toContain: "Debouncer(for:scheduler:) needs an interval of zero or more")
    let throttler = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = Throttler(for: .seconds(-1), scheduler: DispatchQueue.test, latest: false)
    }
    expectStandardError(
      of: throttler,
      toContain: "Throttler(for:scheduler:latest:) needs an interval of zero or more")
  }

  @Test(.exitTestOffThePool) func aMarbleFrameOfZero() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = try expectCallbackMarbles(input: "a", expected: "a", frame: .zero) { _, _ in { _ in } }
    }
    expectStandardError(of: result, toContain: "A marble test needs a frame longer than zero")
  }

  @Test(.exitTestOffThePool) func negativeThrottleWithEdgesAndTimeoutWithACustomError() async {
    let throttle = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AsyncStream<Int> { _ in }.throttle(
        for: .seconds(-1), scheduler: DispatchQueue.test, edges: .leading)
    }
    expectStandardError(
      of: throttle,
      toContain: "throttle(for:scheduler:edges:latest:) needs an interval of zero or more, got -1 s"
    )
    let throttler = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = Throttler(for: .seconds(-1), scheduler: DispatchQueue.test, edges: .trailing)
    }
    expectStandardError(
      of: throttler,
      toContain: "Throttler(for:scheduler:edges:latest:) needs an interval of zero or more")
    let timeout = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AsyncStream<Int> { _ in }.timeout(
        .seconds(-3), scheduler: DispatchQueue.test, customError: { CancellationError() })
    }
    expectStandardError(
      of: timeout,
      toContain: "timeout(_:scheduler:customError:) needs an interval of zero or more, got -3 s")
  }

  @Test(.exitTestOffThePool) func collectWithoutAWindowOrACount() async {
    let zero = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AsyncStream<Int> { _ in }.collect(.byTime(DispatchQueue.test, .zero))
    }
    expectStandardError(
      of: zero, toContain: "collect(_:) needs an interval greater than zero, got 0 s")
    let count = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AsyncStream<Int> { _ in }.collect(.byTimeOrCount(DispatchQueue.test, .seconds(1), 0))
    }
    expectStandardError(
      of: count, toContain: "collect(.byTimeOrCount(_:_:_:)) needs a count of 1 or more, got 0")
  }

  @Test(.exitTestOffThePool) func aTimerThatDropsTicksNeedsAnInterval() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = DispatchQueue.test.timer(interval: .zero, missedTicks: .drop)
    }
    expectStandardError(
      of: result, toContain: "timer(interval:) needs an interval greater than zero, got 0 s")
  }

  /// The iterator is not `Sendable`, so two tasks can share it only past the compiler's
  /// checks: here, through a box that says it is `@unchecked Sendable`.
  @Test(.exitTestOffThePool) func anIteratorUsedByTwoTasksAtOnce() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      // An upstream that stays open and never yields: each `next()` waits.
      let (upstream, continuation) = AsyncStream.makeStream(of: Int.self)
      let shared = SharedIterator(
        upstream.debounce(for: .seconds(1), scheduler: DispatchQueue.test).makeAsyncIterator(),
        keepingOpen: continuation)
      for _ in 0..<2 {
        Task {
          var iterator = shared.iterator
          _ = await iterator.next()
        }
      }
      // Were the misuse let through, both tasks would wait for ever: end the process then,
      // with success, which fails the test.
      try await Task.sleep(for: .seconds(10))
    }
    expectStandardError(
      of: result,
      toContain:
        "An operator's iterator was used by two tasks at once; iterate it from one task.")
  }
}

/// One operator iterator that two tasks copy, and the continuation that keeps its upstream
/// open. `@unchecked Sendable` on purpose: the test shows what sharing the iterator does.
private final class SharedIterator: @unchecked Sendable {
  let iterator: SchedulerOperatorIterator<Int, Never>
  let continuation: AsyncStream<Int>.Continuation

  init(
    _ iterator: SchedulerOperatorIterator<Int, Never>,
    keepingOpen continuation: AsyncStream<Int>.Continuation
  ) {
    self.iterator = iterator
    self.continuation = continuation
  }
}

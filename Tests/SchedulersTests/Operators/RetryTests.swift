import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

struct FlakyError: Error, Equatable { let attempt: Int }
struct FatalError: Error, Equatable {}

/// A seeded generator, so that jittered delays repeat.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("Retry with backoff")
struct RetryTests {
  /// Milliseconds of the scheduler's clock since its start.
  static func elapsed(_ scheduler: TestSchedulerOf<DispatchQueue>) -> Int {
    Int(DispatchQueue.virtualEpoch.distance(to: scheduler.now).magnitude) / 1_000_000
  }

  @Test func theAttemptsHappenExactlyWhenTheExponentialBackoffSays() async throws {
    let scheduler = DispatchQueue.test
    let attempts = Recorder<Int>()
    try await withDeterministicExecution(scheduler: scheduler) {
      let request = Task {
        try await withRetry(
          maxAttempts: 5, backoff: .exponential(initial: .seconds(1), maximum: .seconds(3)),
          scheduler: scheduler
        ) {
          attempts.append(Self.elapsed(scheduler))
          if attempts.count < 5 { throw FlakyError(attempt: attempts.count) }
          return "forecast"
        }
      }
      await scheduler.advance()
      #expect(attempts.values == [0])
      await scheduler.advance(by: .milliseconds(999))
      #expect(attempts.values == [0])
      await scheduler.advance(by: .milliseconds(1))
      #expect(attempts.values == [0, 1_000])
      await scheduler.advance(by: .seconds(10))
      // 1 s, 2 s, then capped at 3 s, 3 s.
      #expect(attempts.values == [0, 1_000, 3_000, 6_000, 9_000])
      let forecast = try await request.value
      #expect(forecast == "forecast")
    }
  }

  /// The attempt diagrams of the DocC article (one frame = 1 s; `x` fails, `o` succeeds).
  @Test(
    arguments: [
      (Backoff.constant(.seconds(2)), "x-x-x-o"),
      (.linear(initial: .seconds(1), increment: .seconds(1)), "xx-x--o"),
      (.exponential(initial: .seconds(1), maximum: .seconds(4)), "xx-x---x---o"),
    ])
  func attemptDiagrams(backoff: Backoff, diagram: String) async throws {
    let scheduler = DispatchQueue.test
    let attempts = Recorder<Int>()
    let expected = diagram.enumerated().filter { $0.element != "-" }.map { $0.offset * 1_000 }
    try await withDeterministicExecution(scheduler: scheduler) {
      let request = Task {
        try await withRetry(maxAttempts: 10, backoff: backoff, scheduler: scheduler) {
          attempts.append(Self.elapsed(scheduler))
          if attempts.count < expected.count { throw FlakyError(attempt: attempts.count) }
        }
      }
      await scheduler.advance(by: .seconds(60))
      try await request.value
    }
    #expect(attempts.values == expected)
  }

  @Test func whenTheAttemptsRunOutTheLastErrorIsThrown() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      let request = Task {
        try await withRetry(
          maxAttempts: 3, backoff: .linear(initial: .seconds(1), increment: .seconds(1)),
          scheduler: scheduler
        ) { () throws -> Int in throw FlakyError(attempt: Self.elapsed(scheduler)) }
      }
      await scheduler.advance(by: .seconds(10))
      await #expect(throws: FlakyError(attempt: 3_000)) { try await request.value }
      scheduler.expectNoPendingWork()
    }
  }

  @Test func anErrorThePredicateRefusesIsThrownAtOnce() async throws {
    let scheduler = DispatchQueue.test
    let attempts = Counter()
    await #expect(throws: FatalError()) {
      try await withRetry(
        maxAttempts: 5, backoff: .constant(.seconds(1)), scheduler: scheduler,
        retryingWhen: { $0 is FlakyError }
      ) { () throws -> Int in
        attempts.increment()
        throw FatalError()
      }
    }
    #expect(attempts.value == 1)
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func cancellingStopsTheWaitingAtOnce() async throws {
    let scheduler = DispatchQueue.test
    let attempts = Counter()
    try await withDeterministicExecution(scheduler: scheduler) {
      let request = Task {
        try await withRetry(
          maxAttempts: 5, backoff: .constant(.seconds(60)), scheduler: scheduler
        ) { () throws -> Int in
          attempts.increment()
          throw FlakyError(attempt: attempts.value)
        }
      }
      await scheduler.advance()
      #expect(scheduler.pendingActionCount == 1)  // waiting 60 s
      request.cancel()
      await #expect(throws: CancellationError.self) { try await request.value }
      #expect(attempts.value == 1)
      scheduler.expectNoPendingWork()
    }
  }

  @Test func jitterIsDrawnFromTheInjectedGenerator() async throws {
    let backoff = Backoff.constant(.seconds(10)).jittered(.full)
    var first = SeededGenerator(state: 7)
    var second = SeededGenerator(state: 7)
    let delays = (1...5).map { backoff.delay(beforeRetry: $0, using: &first) }
    #expect(delays == (1...5).map { backoff.delay(beforeRetry: $0, using: &second) })
    #expect(delays.allSatisfy { $0 >= .zero && $0 <= .seconds(10) })
    #expect(Set(delays).count == 5)

    // The retry waits exactly the drawn delay.
    var expected = SeededGenerator(state: 7)
    let firstDelay = backoff.delay(beforeRetry: 1, using: &expected)
    let scheduler = DispatchQueue.test
    let attempts = Recorder<DispatchQueue.SchedulerTimeType>()
    try await withDeterministicExecution(scheduler: scheduler) {
      let request = Task {
        var generator = SeededGenerator(state: 7)
        return try await withRetry(
          maxAttempts: 2, backoff: backoff, scheduler: scheduler, using: &generator
        ) {
          attempts.append(scheduler.now)
          if attempts.count == 1 { throw FlakyError(attempt: 1) }
          return attempts.count
        }
      }
      await scheduler.advance(by: .seconds(10))
      let attemptsMade = try await request.value
      #expect(attemptsMade == 2)
    }
    let waited = attempts.values[0].distance(to: attempts.values[1])
    #expect(waited == .init(firstDelay))
  }

  @Test(arguments: [
    (Backoff.constant(.seconds(2)), [2, 2, 2, 2]),
    (.linear(initial: .seconds(1), increment: .seconds(2), maximum: .seconds(6)), [1, 3, 5, 6]),
    (.exponential(initial: .seconds(1), multiplier: 3, maximum: .seconds(20)), [1, 3, 9, 20]),
  ])
  func delaysFollowTheStrategy(backoff: Backoff, seconds: [Int64]) {
    #expect((1...4).map { backoff.delay(beforeRetry: $0) } == seconds.map { .seconds($0) })
  }

  @Test func jitterStaysInItsRange() {
    var generator = SeededGenerator(state: 1)
    for _ in 0..<200 {
      let equal = Jitter.equal.apply(to: .seconds(10), using: &generator)
      #expect(equal >= .seconds(5) && equal <= .seconds(10))
      let proportional = Jitter.proportional(0.1).apply(to: .seconds(10), using: &generator)
      #expect(proportional >= .seconds(9) && proportional <= .seconds(11))
    }
  }

  @Test func aLongRunOfExponentialRetriesStaysAtTheCap() {
    let backoff = Backoff.exponential(initial: .seconds(1), maximum: .seconds(30))
    #expect(backoff.delay(beforeRetry: 10_000) == .seconds(30))
    #expect("\(backoff.jittered(.full))" == "exponential from 1 s, ×2.0, up to 30 s, full jitter")
  }

  @Test(.exitTestOffThePool) func aNegativeDelayIsRefusedNamingIt() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backoff.constant(.seconds(-1))
    }
    expectStandardError(
      of: result, toContain: "Backoff.constant(_:) needs a delay of zero or more, got -1 s")
  }

  @Test(.exitTestOffThePool) func zeroAttemptsAreRefusedNamingThem() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var generator = SystemRandomNumberGenerator()
      _ = try await withRetry(
        maxAttempts: 0, backoff: .constant(.seconds(1)), scheduler: DispatchQueue.test,
        using: &generator
      ) { 1 }
    }
    expectStandardError(
      of: result, toContain: "withRetry(maxAttempts:) needs at least 1 attempt, got 0")
  }
}

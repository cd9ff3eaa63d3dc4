import Schedulers
import Testing

/// The shape of swift-clocks 1.1.1's `ImmediateClockTests` (`testTimer`, `testNow`), which a
/// user porting from `ImmediateClock` keeps: the clock's `now` moves by each sleep.
@Suite("VirtualImmediateClock")
struct VirtualImmediateClockTests {
  @Test func tenSleepsOfASecondMoveTheClockTenSeconds() async throws {
    let clock = VirtualImmediateClock()
    let task = Task {
      var ticks = 0
      while ticks < 10 {
        try await clock.sleep(for: .seconds(1))
        ticks += 1
      }
      return ticks
    }
    let ticks = try await task.value
    #expect(ticks == 10)
    #expect(clock.now == VirtualImmediateClock.Instant().advanced(by: .seconds(10)))
  }

  @Test func nowMovesByTheTimeSlept() async throws {
    let clock = VirtualImmediateClock()
    let start = clock.now
    try await clock.sleep(for: .seconds(5))
    #expect(start.advanced(by: .seconds(5)) == clock.now)
  }

  @Test func aSleepIntoThePastLeavesNowAloneAndACancelledOneThrows() async throws {
    let clock = VirtualImmediateClock(now: .init(offset: .seconds(60)))
    try await clock.sleep(until: .init(offset: .seconds(10)), tolerance: nil)
    #expect(clock.now == .init(offset: .seconds(60)))
    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    #expect(clock.now == .init(offset: .seconds(60)))
  }
}

import SchedulersTesting
import Testing

@testable import SchedulersDeterministic

/// A plain `Task.sleep`'s virtual deadline: the runtime hands the run a deadline read from a
/// real clock, and the run recovers the delay as the roundest duration in the window it knows
/// the delay lies in (at least the gap to the deadline, at most that plus the real time the job
/// has run).
@Suite("Plain sleep deadlines")
struct PlainSleepExactnessTests {
  @Test(arguments: [
    // (low, high) in nanoseconds, and the answer
    (249_999_100, 250_000_900, 250_000_000),  // unloaded: a microsecond either side
    (246_000_000, 250_000_100, 250_000_000),  // preempted for 4 ms (the 246 ms of the report)
    (332_990, 333_004, 333_000),  // a window a few nanoseconds wide holds only 333 µs
    // A plain sleep's window is the gap plus the 50 µs allowance: 333 µs comes out as 350 µs,
    // and anything shorter than 50 µs (here 1 µs) as 50 µs.
    (332_990, 383_004, 350_000),
    (990, 51_004, 50_000),
    (999_999_000, 1_000_000_500, 1_000_000_000),
    (1_499_999_000, 1_500_000_500, 1_500_000_000),
    (241_000_001, 249_000_000, 245_000_000),  // no round one: a multiple of five, the largest
    (-1_000, 500, 0),  // a zero sleep
    (7_000_000, 7_000_000, 7_000_000),  // an exact window
  ])
  func theRoundestDurationInTheWindow(low: Int64, high: Int64, expected: Int64) {
    #expect(
      roundestDuration(from: .nanoseconds(low), through: .nanoseconds(high))
        == .nanoseconds(expected))
  }

  @Test func hugeWindowsDoNotOverflow() {
    let day = Duration.seconds(86_400)
    #expect(roundestDuration(from: day, through: day + .milliseconds(3)) == day)
    // Past Int64 nanoseconds the delay is left as it is: a sleep "until cancelled".
    let far = Duration.seconds(Int64.max / 2)
    #expect(roundestDuration(from: far, through: far + .seconds(1)) == far)
  }

  /// Sleeps of many lengths, from microseconds to hours, one after another in an auto-advancing
  /// run. Each is a length with no rounder one within 50 µs above it, so each comes out exact
  /// unless the job's thread was preempted, or the runtime spent more than 50 µs between its
  /// reading of the clock and the run's (measured: 1 sleep in 50,000 unloaded, 50 µs early).
  /// The test holds each to the millisecond, so that sleeps a millisecond apart never swap.
  @Test(.deterministicExecution(.autoAdvance), .plainTaskSleepIsVirtual)
  func plainSleepsOfEveryScaleWakeOnTime() async throws {
    let lengths: [Duration] = [
      .microseconds(300), .milliseconds(1), .milliseconds(7), .milliseconds(246),
      .milliseconds(250), .milliseconds(1_500), .seconds(59), .seconds(3 * 3_600),
      .microseconds(1_234_500),
    ]
    var total = Duration.zero
    var exact = 0
    for length in lengths {
      let before = DeterministicExecution.elapsed ?? .zero
      try await Task.sleep(for: length)
      let slept = (DeterministicExecution.elapsed ?? .zero) - before
      total += slept
      if slept == length { exact += 1 }
      #expect(
        slept >= length - .milliseconds(1) && slept <= length + .milliseconds(1),
        "a sleep of \(length) took \(slept)")
    }
    // Most, and nearly always all, are exact.
    #expect(exact >= lengths.count - 1)
  }

  /// Two sleepers of nearly the same length, started together, wake in the order of their
  /// lengths.
  @Test(.deterministicExecution(.autoAdvance), .plainTaskSleepIsVirtual)
  func sleepsOneMillisecondApartKeepTheirOrder() async {
    let order = Recorder<String>()
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        try? await Task.sleep(for: .milliseconds(251))
        order.append("251 ms")
      }
      group.addTask {
        try? await Task.sleep(for: .milliseconds(250))
        order.append("250 ms")
      }
    }
    #expect(order.values == ["250 ms", "251 ms"])
  }
}

import SchedulersTesting
import Synchronization
import Testing

@testable import SchedulersDeterministic

/// A plain `Task.sleep`'s virtual deadline: the runtime hands the run a deadline read from a
/// real clock, and the run recovers the delay as the roundest duration in the window it knows
/// the delay lies in (at least the gap to the deadline, at most that plus the real time the job
/// has run; `PlainSleepWindowTests` below has the window's width).
@Suite("Plain sleep deadlines")
struct PlainSleepExactnessTests {
  @Test(arguments: [
    // (low, high) in nanoseconds, and the answer
    (249_999_100, 250_000_900, 250_000_000),  // unloaded: a microsecond either side
    (246_000_000, 250_000_100, 250_000_000),  // preempted for 4 ms (the 246 ms of the report)
    (332_990, 333_004, 333_000),  // a window a few nanoseconds wide holds only 333 µs
    // A plain sleep's window is at least 50 µs wide: 333 µs comes out as 350 µs, and anything
    // shorter than 50 µs (here 1 µs) as 50 µs.
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
  /// run. Each is a length with no rounder one within 200 µs above it, and each sleeps at once
  /// in its job, so each comes out exact unless the job's thread was preempted, or the runtime's
  /// hand-over took more than 250 µs of the thread's CPU time. The test holds each sleep whose
  /// thread was not preempted (its window 500 µs or less) to the millisecond, so that sleeps a
  /// millisecond apart never swap. One whose thread was preempted is held to its window only,
  /// on either side: the delay lies between the gap and the gap plus the window, and the gap
  /// fell short of the length by the hand-over, at most the window. A busy machine has shown
  /// both sides: a 300 µs sleep came out 5 ms after a 4.7 ms preemption, and a 7 ms sleep came
  /// out as zero (the roundest duration in its window) after a 7.1 ms one.
  @Test(.deterministicExecution(.autoAdvance), .plainTaskSleepIsVirtual)
  func plainSleepsOfEveryScaleWakeOnTime() async throws {
    let lengths: [Duration] = [
      .microseconds(300), .milliseconds(1), .milliseconds(7), .milliseconds(246),
      .milliseconds(250), .milliseconds(1_500), .seconds(59), .seconds(3 * 3_600),
      .microseconds(1_234_500),
    ]
    var exact = 0
    var preempted = 0
    for length in lengths {
      let before = DeterministicExecution.elapsed ?? .zero
      try await Task.sleep(for: length)
      let slept = (DeterministicExecution.elapsed ?? .zero) - before
      let window = try #require(DeterministicExecution.lastPlainSleepWindow)
      guard window <= .microseconds(500) else {
        preempted += 1
        #expect(
          slept >= length - window && slept <= length + window,
          "a sleep of \(length) took \(slept), its window \(window)")
        continue
      }
      if slept == length { exact += 1 }
      #expect(
        slept >= length - .milliseconds(1) && slept <= length + .milliseconds(1),
        "a sleep of \(length) took \(slept)")
    }
    // Of those not preempted, most, and nearly always all, are exact.
    #expect(exact >= lengths.count - preempted - 1)
  }

  /// Two sleepers of nearly the same length, started together, wake in the order of their
  /// lengths, whenever neither's window reached a millisecond (its thread was not preempted
  /// that long in the hand-over). One that did may hold 250 ms for the 251 ms sleep, rounder;
  /// the two then wake at the same instant, in either order.
  @Test(.deterministicExecution(.autoAdvance), .plainTaskSleepIsVirtual)
  func sleepsOneMillisecondApartKeepTheirOrder() async throws {
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
    let widest = try #require(DeterministicExecution.widestPlainSleepWindow)
    if widest < .milliseconds(1) {
      #expect(order.values == ["250 ms", "251 ms"], "the widest window \(widest)")
    } else {
      #expect(order.values.sorted() == ["250 ms", "251 ms"], "the widest window \(widest)")
    }
  }
}

/// Clocks set by hand, for `JobStart`: real time and the thread's CPU time, in nanoseconds, and
/// the thread.
final class HandSetJobClocks: Sendable {
  private let readings = Mutex((real: UInt64(0), cpu: UInt64(0), thread: UInt(1)))

  var clocks: JobClocks {
    JobClocks(
      real: { self.readings.withLock { $0.real } },
      threadCPU: { self.readings.withLock { $0.cpu } },
      thread: { self.readings.withLock { $0.thread } })
  }

  func set(real: UInt64, cpu: UInt64, thread: UInt = 1) {
    readings.withLock { $0 = (real, cpu, thread) }
  }
}

/// The window a plain sleep's delay is recovered in, from faked clocks: how long the job had
/// run (in real time and in CPU time) when its sleep reached the run, and how far short of the
/// delay the gap to the deadline fell (the real time the runtime's hand-over took). The numbers
/// are sleeps seen in sleep-bench with both cores busy (2026-11-25).
@Suite("Plain sleep windows")
struct PlainSleepWindowTests {
  /// The delay a job recovers from the gap, having run `real` (of which `cpu` on a processor)
  /// since it started.
  func recovered(
    gap: Duration, real: UInt64, cpu: UInt64, onAnotherThread: Bool = false
  ) -> Duration {
    let hand = HandSetJobClocks()
    let start = JobStart(clocks: hand.clocks)
    hand.set(real: 7_000_000_000, cpu: 3_000_000_000)
    start.markStart()
    hand.set(
      real: 7_000_000_000 + real, cpu: 3_000_000_000 + cpu, thread: onAnotherThread ? 2 : 1)
    return start.delay(fromGap: gap)
  }

  /// The hand-over ran slow on the processor (the thread's CPU clock counted it): more than the
  /// 50 µs allowance, which alone let these come back 50 or 100 µs early.
  @Test(arguments: [
    // (asked, hand-over took, job's real time, job's CPU time), in nanoseconds
    (1_000_000_000, 53_240, 54_922, 54_892),  // once 999,950 µs
    (2_000_000_000, 91_418, 93_260, 52_238),  // once 1,999,950 µs (41 µs of it preempted)
    (1_000_000_000, 120_301, 121_943, 67_141),  // once 999,900 µs
    (1_000_000, 403_316, 406_380, 61_212),  // once 600 µs (345 µs of it preempted)
    (160_000_000, 61_500, 63_545, 63_545),  // once 159,950 µs
  ])
  func aSlowHandOverStillComesOutExact(asked: Int64, handOver: Int64, real: UInt64, cpu: UInt64) {
    let gap = Duration.nanoseconds(asked - handOver)
    #expect(recovered(gap: gap, real: real, cpu: cpu) == .nanoseconds(asked))
  }

  /// A hand-over that passed the window's 250 µs limit: a 1 s sleep of a
  /// main-actor task came out as 999.5 ms once in 1,000 runs of a story suite with a build
  /// beside it. The window held 999.5 ms and not 1 s when the hand-over took more than 250 µs
  /// that the run could not see as a preemption: the thread's CPU clock counted it as running
  /// (the host taking the virtual machine's processor, or the kernel reclaiming memory for the
  /// sleep's allocation), or the sleep was on a thread whose times the run does not know (a
  /// task on an actor with an executor of its own), preempted there for 500 µs. A duration a
  /// thousand times rounder, within a thousandth of the delay, is taken past the limit. (A
  /// sleep shorter than a thousand times the hand-over gets no more than the limit:
  /// 250 ms after a hand-over of 300 µs still comes out as 249.7 ms.)
  @Test(arguments: [
    // (asked, hand-over took, job's real time, job's CPU time, on another thread), in
    // nanoseconds
    (1_000_000_000, 601_700, 603_500, 603_500, false),  // was 999,500 µs
    (2_000_000_000, 1_201_700, 1_203_500, 1_203_500, false),  // was 1,999,000 µs
    (1_000_000_000, 501_700, 50_000_000, 0, true),  // was 999,500 µs
    (10_000_000_000, 2_001_700, 2_003_500, 2_003_500, false),  // was 9,998,000 µs
  ])
  func aHandOverPastTheLimitStillComesOutExact(
    asked: Int64, handOver: Int64, real: UInt64, cpu: UInt64, onAnotherThread: Bool
  ) {
    let gap = Duration.nanoseconds(asked - handOver)
    #expect(
      recovered(gap: gap, real: real, cpu: cpu, onAnotherThread: onAnotherThread)
        == .nanoseconds(asked))
  }

  /// Past the limit, only a duration a thousand times rounder: after a job that ran 2 ms,
  /// 1.004 s stays 1.004 s (not 1.005 s, a millisecond above and only five times rounder),
  /// three hours and three seconds stays that on another thread (not ten seconds more), and
  /// 333 µs still comes out as 500 µs.
  @Test func pastTheLimitOnlyAFarRounderDurationIsTaken() {
    let ran: UInt64 = 2_001_800
    let asked = Duration.milliseconds(1_004)
    #expect(recovered(gap: asked - .nanoseconds(1_700), real: ran, cpu: ran) == asked)
    let long = Duration.seconds(3 * 3_600 + 3)
    #expect(
      recovered(gap: long - .nanoseconds(1_700), real: 0, cpu: 0, onAnotherThread: true) == long)
    #expect(recovered(gap: .nanoseconds(331_300), real: ran, cpu: ran) == .microseconds(500))
  }

  /// A job that sleeps at once (the usual case: a task waking from its last sleep and going to
  /// sleep again) keeps the 50 µs window: 333 µs comes out as 350 µs, every time.
  @Test func aShortJobKeepsTheFiftyMicrosecondWindow() {
    #expect(recovered(gap: .nanoseconds(331_300), real: 1_800, cpu: 1_800) == .microseconds(350))
    #expect(recovered(gap: .nanoseconds(998_300), real: 1_800, cpu: 1_800) == .milliseconds(1))
    #expect(recovered(gap: .nanoseconds(-1_000), real: 1_800, cpu: 1_800) == .zero)
  }

  /// After a job that computed for 2 ms, the window is 250 µs wide, not the 2 ms the job ran:
  /// 333 µs comes out as 500 µs (not 1 ms, or 2 ms), and round delays stay exact.
  @Test func aLongJobWidensTheWindowOnlyToTheLimit() {
    let ran: UInt64 = 2_001_800
    #expect(recovered(gap: .nanoseconds(331_300), real: ran, cpu: ran) == .microseconds(500))
    for asked in [Duration.milliseconds(1), .microseconds(1_500), .milliseconds(160), .seconds(2)] {
      #expect(recovered(gap: asked - .nanoseconds(1_700), real: ran, cpu: ran) == asked)
    }
  }

  /// Preempted for 4 ms during the hand-over: the window holds the 4 ms.
  @Test func aPreemptionWidensTheWindowByItsLength() {
    #expect(
      recovered(gap: .milliseconds(246), real: 4_003_000, cpu: 3_000) == .milliseconds(250))
  }

  /// Preempted for longer than the sleep: the deadline had passed when the sleep reached the
  /// run, and zero is the roundest duration in the window. The 7 ms sleep a busy CI machine
  /// recorded: a window of 7.145 ms, and the sleep came out as zero, within it.
  @Test func aPreemptionLongerThanTheSleepCanMakeItZero() {
    #expect(
      recovered(gap: .microseconds(-100), real: 7_145_112, cpu: 50_000) == .zero)
  }

  /// The case the end-to-end test of a 200 µs sleep allows for: a hand-over of 100 µs or more
  /// (here 120 µs, preempted on a loaded machine) leaves 100 µs in the window, as round as
  /// 200 µs and smaller, so the sleep comes out 100 µs short. A window under 100 µs cannot.
  @Test func aPreemptedHandOverCanShortenASubMillisecondSleep() {
    #expect(recovered(gap: .microseconds(80), real: 121_800, cpu: 1_800) == .microseconds(100))
    #expect(recovered(gap: .microseconds(199), real: 1_800, cpu: 1_800) == .microseconds(200))
  }

  /// The widest window of a run is kept beside the last one: a test of several sleeps reads it
  /// to know whether a preemption can have moved any of them.
  @Test func theWidestWindowIsKept() {
    let hand = HandSetJobClocks()
    let start = JobStart(clocks: hand.clocks)
    for (real, cpu) in [(1_800, 1_800), (4_003_000, 3_000), (1_800, 1_800)] as [(UInt64, UInt64)] {
      hand.set(real: 7_000_000_000, cpu: 3_000_000_000)
      start.markStart()
      hand.set(real: 7_000_000_000 + real, cpu: 3_000_000_000 + cpu)
      _ = start.delay(fromGap: .milliseconds(10))
    }
    #expect(start.lastWindow == .microseconds(50))
    #expect(start.widestWindow == .microseconds(4_050))
  }

  /// A task of the run on an actor with an executor of its own sleeps on a thread the run does
  /// not mark: its job's times there are another thread's, which could have widened the window
  /// by the milliseconds since the run's last job began. It gets the 250 µs limit instead.
  @Test func aSleepOnAnotherThreadGetsTheLimit() {
    // Another thread, its CPU clock far behind the job's thread: 50 ms "preempted".
    let far: UInt64 = 50_000_000
    #expect(
      recovered(gap: .milliseconds(160), real: far, cpu: 0, onAnotherThread: true)
        == .milliseconds(160))
    #expect(
      recovered(gap: .nanoseconds(331_300), real: far, cpu: 0, onAnotherThread: true)
        == .microseconds(500))
    #expect(
      recovered(gap: .seconds(2) - .microseconds(200), real: far, cpu: 0, onAnotherThread: true)
        == .seconds(2))
  }
}

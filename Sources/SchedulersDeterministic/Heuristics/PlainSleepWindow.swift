// A heuristic: the delay a plain `Task.sleep` asked for, recovered from real time. The runtime
// hands the run a sleeping task's wake-up with a deadline on a real clock (now + delay, read a
// moment before), not the delay; the run takes the roundest duration in the window between the
// gap to that deadline and the gap plus what the hand-over can have taken
// (`DeterministicRun.enqueue(_:onMainActor:after:fromDeadline:)` says which delays come out
// exact). A thread preempted during the hand-over widens the window;
// `DeterministicExecution.lastPlainSleepWindow` says how wide the last one was. Past the
// window's limit, up to a thousandth of the delay, only a duration a thousand times rounder
// is taken (`JobStart.delay(fromGap:)`).

import Dispatch
import Schedulers
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The roundest whole number of nanoseconds from `low` through `high`: the one with the most
/// trailing decimal zeros (250 ms before 247 ms, 1 s before 999.9 ms), then a multiple of
/// five of that power of ten, then the smallest (`low` is the tighter bound). Delays people
/// write are round, and a window that holds one is almost never wide enough to hold a rounder
/// one.
package func roundestDuration(from low: Duration, through high: Duration) -> Duration {
  // Past Int64 nanoseconds (292 years, a sleep "until cancelled") the delay stays as it is,
  // too long for any virtual clock.
  guard high < .seconds(9_223_372_036) else { return low }
  let (lowSeconds, lowAttoseconds) = low.components
  let (highSeconds, highAttoseconds) = high.components
  // In nanoseconds, clamped to what Int64 holds (292 years: beyond it rounding is moot).
  func nanoseconds(_ seconds: Int64, _ attoseconds: Int64, roundingUp: Bool) -> Int64 {
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let fraction = attoseconds / 1_000_000_000
    let remainder = attoseconds % 1_000_000_000
    let adjust: Int64 = roundingUp ? (remainder > 0 ? 1 : 0) : (remainder < 0 ? -1 : 0)
    let (sum, sumOverflow) = product.addingReportingOverflow(fraction + adjust)
    return sumOverflow ? (seconds < 0 ? .min : .max) : sum
  }
  let lower = max(0, nanoseconds(lowSeconds, lowAttoseconds, roundingUp: true))
  let upper = nanoseconds(highSeconds, highAttoseconds, roundingUp: false)
  guard upper < .max else { return low }
  guard lower > 0, upper > lower else { return .nanoseconds(max(lower, 0)) }
  var power: Int64 = 1_000_000_000_000_000_000
  while power > 1 {
    let first = (lower / power + (lower % power == 0 ? 0 : 1))
    let last = upper / power
    if first <= last {
      let fives = stride(from: first, through: last, by: 1).first { $0 % 5 == 0 }
      return .nanoseconds((fives ?? first) * power)
    }
    power /= 10
  }
  return .nanoseconds(lower)
}

/// How wide a plain sleep's window is at least, above the time its thread was preempted: the
/// hand-over's usual time (1 to 2 µs mostly, 20 to 30 µs for about one sleep in a thousand,
/// 27 µs for the first sleep of a process), with room to spare, so that a job that sleeps at
/// once gets the same window every time.
let plainSleepReadingAllowance: Duration = .microseconds(50)

/// How wide a plain sleep's window is at most, above the time its thread was preempted, however
/// long its job ran before it: the slowest hand-overs sleep-bench saw (2026-11-25, both cores
/// busy) took 50 to 92 µs of the thread's CPU time, about one sleep in 70,000, which the
/// allowance alone missed. Below 500 µs, so that every multiple of 500 µs stays exact after a
/// long job too. Past it, only a duration a thousand times rounder is taken, up to a
/// thousandth of the delay (`JobStart.delay(fromGap:)`).
let plainSleepReadingLimit: Duration = .microseconds(250)

/// How round, as the largest power of ten that divides it in nanoseconds; a duration of zero
/// or less counts as rounder than any.
func roundness(of duration: Duration) -> Int64 {
  let (seconds, attoseconds) = duration.components
  guard seconds > 0 || (seconds == 0 && attoseconds > 0) else { return .max }
  guard attoseconds % 1_000_000_000 == 0 else { return 0 }
  let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
  let (nanoseconds, sumOverflow) = product.addingReportingOverflow(attoseconds / 1_000_000_000)
  guard !overflow, !sumOverflow else { return .max }
  var power: Int64 = 1
  while power <= Int64.max / 10, nanoseconds % (power * 10) == 0 { power *= 10 }
  return power
}

/// The start of the job a run is running, on the thread that runs it: what bounds a plain
/// sleep's window.
final class JobStart: Sendable {
  private let clocks: JobClocks
  private let real = Atomic<UInt64>(0)
  private let cpu = Atomic<UInt64>(0)
  private let thread = Atomic<UInt>(0)
  /// The width of the last plain sleep's window, in nanoseconds (`lastWindow`).
  private let lastWindowNanoseconds = Atomic<Int64>(0)
  /// The width of the widest window so far, in nanoseconds (`widestWindow`).
  private let widestWindowNanoseconds = Atomic<Int64>(0)

  init(clocks: JobClocks = .system) { self.clocks = clocks }

  /// How wide the last plain sleep's window was: above 500 µs only when its thread was
  /// preempted during its job, or a far rounder duration past the limit was taken.
  var lastWindow: Duration { .nanoseconds(lastWindowNanoseconds.load(ordering: .relaxed)) }

  /// How wide the widest plain sleep's window was: a test of several sleeps reads it.
  var widestWindow: Duration { .nanoseconds(widestWindowNanoseconds.load(ordering: .relaxed)) }

  /// Called on the job's thread just before it runs.
  func markStart() {
    thread.store(clocks.thread(), ordering: .relaxed)
    real.store(clocks.real(), ordering: .relaxed)
    cpu.store(clocks.threadCPU(), ordering: .relaxed)
  }

  /// The delay a plain sleep asked for, recovered from the gap between now and the deadline
  /// the runtime read a moment before: called from the sleeping job.
  ///
  /// The roundest duration in the window `slack()` allows; or, when the window's limit cut the
  /// hand-over short, the roundest up to a thousandth of the gap above it if that one is a
  /// thousand times rounder (a whole second where the window held 999.5 ms). A hand-over can
  /// pass the limit: one the thread's CPU clock counted as running for 600 µs (the host taking
  /// a virtual machine's processor, or the kernel reclaiming memory for the sleep's
  /// allocation, with a build beside it), or one preempted for 500 µs on a thread whose times
  /// the run does not know. Only a delay a thousand times less round than one a thousandth
  /// above it can be taken for that one: 999.5 ms for 1 s, after a job that ran 500 µs, or on
  /// a thread whose times the run does not know, where the job's real time cannot bound it.
  func delay(fromGap gap: Duration) -> Duration {
    let (slack, bound) = window()
    let limited = roundestDuration(from: gap, through: gap + slack)
    var width = slack
    var delay = limited
    // What the hand-over can have taken: the job's real time so far, where it is known.
    let reach = min(bound ?? .seconds(Int64.max), gap / 1_000)
    if reach > slack {
      let wider = roundestDuration(from: gap, through: gap + reach)
      if roundness(of: wider) / max(roundness(of: limited), 1) >= 1_000 {
        (width, delay) = (reach, wider)
      }
    }
    let nanoseconds = Int64(Nanoseconds.saturating(width))
    lastWindowNanoseconds.store(nanoseconds, ordering: .relaxed)
    widestWindowNanoseconds.max(nanoseconds, ordering: .relaxed)
    return delay
  }

  /// How far above the gap the delay can lie: the real time since the job began, which holds
  /// the whole hand-over, kept between 50 µs (`plainSleepReadingAllowance`) and 250 µs
  /// (`plainSleepReadingLimit`) above the time the thread spent preempted (real time less the
  /// thread's CPU time). The preemption alone does not bound the hand-over: its instructions
  /// can take 50 µs and more that the thread's CPU clock counts as running (probably the host
  /// taking a virtual machine's processor, or an interrupt). So the window holds the delay
  /// whenever the job had run for less than 250 µs of CPU time, as a task that wakes and
  /// sleeps again has; after a longer job, whenever the hand-over took less than 250 µs of
  /// it. Called on a thread other than the job's (a task of the run on an actor with an
  /// executor of its own), where it knows neither time, it allows 250 µs.
  func slack() -> Duration { window().slack }

  /// `slack()`, and the real time since the job began, which bounds the hand-over for sure:
  /// `nil` on a thread other than the job's.
  private func window() -> (slack: Duration, bound: Duration?) {
    guard clocks.thread() == thread.load(ordering: .relaxed) else {
      return (plainSleepReadingLimit, nil)
    }
    let elapsed = clocks.real() &- real.load(ordering: .relaxed)
    // The CPU clock can read a little ahead of the real one: it is read second.
    let ran = min(clocks.threadCPU() &- cpu.load(ordering: .relaxed), elapsed)
    let preempted = Duration.nanoseconds(Int64(clamping: elapsed - ran))
    let running = Duration.nanoseconds(Int64(clamping: ran))
    return (
      preempted + min(max(running, plainSleepReadingAllowance), plainSleepReadingLimit),
      .nanoseconds(Int64(clamping: elapsed))
    )
  }
}

/// The clocks `JobStart` reads: real time and the calling thread's CPU time, in nanoseconds,
/// and the calling thread. Tests pass clocks of their own, to stand for a preempted thread or a
/// slow hand-over.
struct JobClocks: Sendable {
  var real: @Sendable () -> UInt64
  var threadCPU: @Sendable () -> UInt64
  var thread: @Sendable () -> UInt

  static let system = JobClocks(
    real: { DispatchTime.now().uptimeNanoseconds }, threadCPU: threadCPUNanoseconds,
    thread: currentThread)
}

/// The calling thread, as a number.
private func currentThread() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #elseif canImport(Glibc)
    UInt(pthread_self())
  #else
    UInt(bitPattern: Int(bitPattern: pthread_self()))
  #endif
}

/// The calling thread's CPU time.
private func threadCPUNanoseconds() -> UInt64 {
  var time = timespec()
  guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
  return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

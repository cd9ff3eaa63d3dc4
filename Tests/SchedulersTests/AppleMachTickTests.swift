import Dispatch
import Schedulers
import Testing

/// On Apple platforms a `DispatchTime` counts mach ticks, not nanoseconds: on Apple Silicon one
/// tick is 125/3 ns, so `DispatchTime(uptimeNanoseconds: 1)` reads back as 41 ns. Linux counts
/// nanoseconds, so a test comparing nanoseconds there can pass and fail on a Mac.
///
/// These tests run a test scheduler over a time type that rounds as Apple's does, on Linux:
/// - `init(uptimeNanoseconds:)` rounds up to a whole tick, and `uptimeNanoseconds` rounds down
///   (the Dispatch overlay, `DispatchTime.swift`, under `HAVE_MACH`);
/// - advancing by a stride converts its nanoseconds to ticks, rounding down (libdispatch's
///   `dispatch_time(when, delta)`); rounding up instead changes nothing below, as every
///   stride the suite uses is a whole number of microseconds, an exact number of ticks.
///
/// What they show: the suite's time comparisons (whole microseconds and up, measured from the
/// virtual epoch) read the same on Apple Silicon as on Linux, and a sub-microsecond stride does
/// not, which is why the suite uses none on Dispatch time outside the Linux-only
/// `StrideTests`.
@Suite("Apple's mach-tick Dispatch time, simulated")
struct AppleMachTickTests {
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride

  @Test func theVirtualEpochReadsBackAs41Nanoseconds() {
    #expect(AppleSiliconDispatchTime(uptimeNanoseconds: 1).uptimeNanoseconds == 41)
    #expect(AppleSiliconDispatchTime(uptimeNanoseconds: 1).ticks == 1)
  }

  @Test func wholeMicrosecondStridesAreExact() {
    let epoch = AppleSiliconDispatchTime(uptimeNanoseconds: 1)
    var generator = SystemRandomNumberGenerator()
    let microseconds =
      [1, 2, 3, 7, 999, 1_000, 300_000, 1_000_000, 86_400_000_000]
      + (0..<2_000).map { _ in Int.random(in: 1...10_000_000_000, using: &generator) }
    for us in microseconds {
      let stride = Stride.microseconds(us)
      let later = epoch.advanced(by: stride)
      #expect(epoch.distance(to: later) == stride, "\(us) µs")
      #expect(later.distance(to: epoch) == .microseconds(-us), "\(us) µs back")
      // Two steps read as one step of twice the length.
      #expect(
        later.advanced(by: stride).distance(to: epoch.advanced(by: .microseconds(us * 2))) == .zero)
    }
  }

  @Test func subMicrosecondStridesAreNot() {
    let epoch = AppleSiliconDispatchTime(uptimeNanoseconds: 1)
    #expect(epoch.advanced(by: .nanoseconds(1)) == epoch)  // less than a tick: no move
    #expect(epoch.distance(to: epoch.advanced(by: .nanoseconds(100))) == .nanoseconds(84))
  }

  /// A test written as the suite writes them, on a scheduler whose time rounds as Apple's.
  @Test func aTestSchedulersReadingsMatchLinux() {
    let scheduler = TestScheduler<AppleSiliconDispatchTime, Never>(
      now: AppleSiliconDispatchTime(uptimeNanoseconds: 1))
    let start = scheduler.now
    let fired = Recorder<Stride>()
    scheduler.schedule(after: start.advanced(by: .milliseconds(300))) {
      fired.append(start.distance(to: scheduler.now))
    }
    let ticks = Recorder<Stride>()
    let timer = scheduler.schedule(
      after: start.advanced(by: .milliseconds(1)), interval: .milliseconds(1)
    ) { ticks.append(start.distance(to: scheduler.now)) }

    scheduler.advance(by: .milliseconds(299))
    #expect(fired.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(fired.values == [.milliseconds(300)])
    for _ in 0..<700 { scheduler.advance(by: .milliseconds(1)) }
    #expect(start.distance(to: scheduler.now) == .seconds(1))
    #expect(ticks.values.count == 1_000)
    #expect(ticks.values.last == .seconds(1))
    #expect(ticks.values == (1...1_000).map { Stride.milliseconds($0) })
    timer.cancel()
  }
}

/// Dispatch time as Apple Silicon keeps it: whole mach ticks of 125/3 ns.
struct AppleSiliconDispatchTime: Strideable, Hashable, Sendable {
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride
  static let numer: UInt64 = 125
  static let denom: UInt64 = 3

  let ticks: UInt64

  init(ticks: UInt64) { self.ticks = ticks }

  /// Rounds up to a whole tick, as the overlay's `DispatchTime(uptimeNanoseconds:)` does.
  init(uptimeNanoseconds: UInt64) {
    ticks = (uptimeNanoseconds * Self.denom + Self.numer - 1) / Self.numer
  }

  /// Rounds down, as the overlay's `uptimeNanoseconds` does.
  var uptimeNanoseconds: UInt64 { ticks * Self.numer / Self.denom }

  func advanced(by stride: Stride) -> Self {
    let nanoseconds = stride.magnitude
    let ticks = UInt64(nanoseconds.magnitude) * Self.denom / Self.numer
    return Self(ticks: nanoseconds >= 0 ? self.ticks + ticks : self.ticks - ticks)
  }

  func distance(to other: Self) -> Stride {
    .nanoseconds(Int(other.uptimeNanoseconds) - Int(uptimeNanoseconds))
  }

  static func < (lhs: Self, rhs: Self) -> Bool { lhs.ticks < rhs.ticks }
}

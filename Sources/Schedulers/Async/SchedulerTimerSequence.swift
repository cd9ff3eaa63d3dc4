/// An asynchronous sequence of ticks, one every `interval` of a scheduler's time.
///
/// Each element is the instant the tick was due. The first tick comes one interval after the
/// iteration starts; later ticks follow the previous deadline, so they never drift. The
/// sequence ends when the consuming task is cancelled. On a test scheduler, ticks due at the
/// same instant as other work keep the place of the timer's first tick, as repeating actions
/// do (and as in combine-schedulers): timers every 2 s and every 3 s, advanced 6 s, tick
/// 2 s, 3 s, 4 s, then at 6 s the 2 s timer before the 3 s one.
///
/// A consumer slower than the interval misses ticks; ``MissedTickPolicy`` says what it gets
/// next: every missed tick at once (`.burst`, the default), or only the next tick on the grid
/// (`.drop`).
///
/// ```swift
/// for await _ in scheduler.timer(interval: .seconds(1)) {
///   secondsLeft -= 1
///   if secondsLeft == 0 { break }
/// }
/// ```
public struct SchedulerTimerSequence<S: Scheduler & Sendable>: AsyncSequence, Sendable
where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  public typealias Element = S.SchedulerTimeType

  let scheduler: S
  let interval: S.SchedulerTimeType.Stride
  let tolerance: S.SchedulerTimeType.Stride?
  let missedTicks: MissedTickPolicy
  let callSite: CallSite

  public func makeAsyncIterator() -> AsyncIterator {
    // Each iteration keeps one place among work due at the same instant, as a repeating
    // action does.
    var callSite = callSite
    callSite.place = SameInstantPlace()
    return AsyncIterator(
      scheduler: scheduler, interval: interval, tolerance: tolerance, missedTicks: missedTicks,
      callSite: callSite)
  }

  /// The iterator of a timer: each `next()` sleeps until the next deadline.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let scheduler: S
    let interval: S.SchedulerTimeType.Stride
    let tolerance: S.SchedulerTimeType.Stride?
    let missedTicks: MissedTickPolicy
    let callSite: CallSite
    var deadline: S.SchedulerTimeType?

    public mutating func next() async -> S.SchedulerTimeType? {
      var next = (deadline ?? scheduler.now).advanced(by: interval)
      if missedTicks == .drop, let deadline {
        let now = scheduler.now
        if next < now {
          // Ticks were missed: resume with the first tick on the grid not before `now`.
          let latest = deadline.latestStep(by: interval, notAfter: now)
          next = latest == now ? now : latest.advanced(by: interval)
        }
      }
      do {
        try await CallSite.$current.withValue(callSite) { [scheduler, tolerance] in
          try await scheduler.sleep(until: next, tolerance: tolerance)
        }
      } catch {
        return nil  // cancelled: the sequence ends
      }
      deadline = next
      return next
    }
  }
}

extension Scheduler
where Self: Sendable, SchedulerTimeType: Sendable, SchedulerTimeType.Stride: Sendable {
  /// An asynchronous sequence that ticks every `interval`, until the consuming task is
  /// cancelled.
  ///
  /// ```swift
  /// for await tick in DispatchQueue.main.timer(interval: .seconds(1)) { print(tick) }
  ///
  /// // A clock display: after a slow frame, show the current second, not the missed ones.
  /// for await _ in scheduler.timer(interval: .seconds(1), missedTicks: .drop) { redraw() }
  /// ```
  ///
  /// `missedTicks` decides what a consumer slower than `interval` gets next: `.burst` (the
  /// default) delivers every missed tick at once, each with the instant it was due, so a
  /// countdown counts every second; `.drop` skips them, as a Combine timer publisher does
  /// without demand, and delivers the next tick on the grid.
  ///
  /// - Precondition: `interval` is greater than zero.
  public func timer(
    interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride? = nil,
    missedTicks: MissedTickPolicy = .burst,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> SchedulerTimerSequence<Self> {
    precondition(
      interval > .zero,
      "timer(interval:) needs an interval greater than zero, got \(describeStride(interval))")
    return SchedulerTimerSequence(
      scheduler: self, interval: interval, tolerance: tolerance, missedTicks: missedTicks,
      callSite: CallSite(fileID: fileID, line: line))
  }

}

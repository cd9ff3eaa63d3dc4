/// An asynchronous sequence of ticks, one every `interval` of a scheduler's time.
///
/// Each element is the instant the tick was due. The first tick comes one interval after the
/// iteration starts; later ticks follow the previous deadline, so they never drift. The
/// sequence ends when the consuming task is cancelled.
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
  let callSite: CallSite

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(
      scheduler: scheduler, interval: interval, tolerance: tolerance, callSite: callSite)
  }

  /// The iterator of a timer: each `next()` sleeps until the next deadline.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let scheduler: S
    let interval: S.SchedulerTimeType.Stride
    let tolerance: S.SchedulerTimeType.Stride?
    let callSite: CallSite
    var deadline: S.SchedulerTimeType?

    public mutating func next() async -> S.SchedulerTimeType? {
      let next = (deadline ?? scheduler.now).advanced(by: interval)
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
  /// ```
  ///
  /// - Precondition: `interval` is greater than zero.
  public func timer(
    interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> SchedulerTimerSequence<Self> {
    precondition(
      interval > .zero,
      "timer(interval:) needs an interval greater than zero, got \(describeStride(interval))")
    return SchedulerTimerSequence(
      scheduler: self, interval: interval, tolerance: tolerance,
      callSite: CallSite(fileID: fileID, line: line))
  }

}

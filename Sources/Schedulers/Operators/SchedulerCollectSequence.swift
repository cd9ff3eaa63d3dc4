@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Groups elements into arrays by windows of a scheduler's time (or by time or count),
  /// emitting each window's elements when it closes. Combine's `collect(_:options:)` with a
  /// ``TimeGroupingStrategy``.
  ///
  /// ```swift
  /// for await batch in events.collect(.byTimeOrCount(scheduler, .seconds(5), 100)) {
  ///   try await analytics.upload(batch)  // every 5 s, or as soon as 100 are waiting
  /// }
  /// ```
  ///
  /// With a frame of 100 ms and windows of 300 ms:
  ///
  /// ```
  /// upstream:          abc-d----e|
  /// .byTime:           ---x--y---(z|)    x = [a, b, c], y = [d], z = [e]
  /// upstream:          abcd-e---|
  /// .byTimeOrCount(2): -x-y--z--|        x = [a, b], y = [c, d], z = [e]
  /// ```
  ///
  /// - Windows follow one another from the start of the iteration, `interval` apart: the
  ///   first closes one interval after the consumer's first `next()`. An element arriving at
  ///   the instant a window closes opens the next one.
  /// - A window in which nothing arrived emits nothing (RxJS's `bufferTime` emits `[]`).
  /// - `.byTimeOrCount`: a window that reaches `count` elements goes out at once, and the next
  ///   window starts then (as RxJS's `bufferTime` with a maximum size restarts its timer).
  /// - The finish emits the elements of the open window, if any, then finishes. The
  ///   upstream's failure goes out at once, and the open window's elements are dropped (as
  ///   Combine and RxJS do).
  /// - The timer runs only while a window holds elements: a quiet upstream leaves nothing
  ///   pending on a test scheduler.
  ///
  /// - Precondition: the interval is greater than zero, and the count (for `.byTimeOrCount`)
  ///   is at least 1.
  public func collect<S: Scheduler & Sendable>(_ strategy: TimeGroupingStrategy<S>)
    -> SchedulerCollectSequence<Self, S>
  where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
    precondition(
      strategy.interval > .zero,
      "collect(_:) needs an interval greater than zero, got \(describeStride(strategy.interval))")
    if let count = strategy.count {
      precondition(
        count >= 1, "collect(.byTimeOrCount(_:_:_:)) needs a count of 1 or more, got \(count)")
    }
    return SchedulerCollectSequence(base: self, strategy: strategy)
  }
}

/// An asynchronous sequence of arrays, one per window of time. Made by
/// ``_Concurrency/AsyncSequence/collect(_:)``.
///
/// ```swift
/// let batches = events.collect(.byTime(scheduler, .seconds(5)))
/// ```
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct SchedulerCollectSequence<Base: AsyncSequence & Sendable, S: Scheduler & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  public typealias Element = [Base.Element]
  public typealias Failure = Base.Failure
  public typealias AsyncIterator = SchedulerOperatorIterator<Element, Failure>

  @usableFromInline let base: Base
  @usableFromInline let strategy: TimeGroupingStrategy<S>

  @inlinable
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(
      base: base, scheduler: strategy.scheduler,
      machine: CollectByTimeMachine(
        interval: strategy.interval, count: strategy.count))
  }
}

/// Collect by time: windows on a grid `interval` apart from the start (restarted by a full
/// window); the timer runs only while the open window holds elements.
@usableFromInline
struct CollectByTimeMachine<Input: Sendable, UpstreamFailure: Error, Time: Strideable & Sendable>:
  TimedOperatorMachine
where Time.Stride: Sendable {
  @usableFromInline typealias Element = [Input]
  @usableFromInline typealias Failure = UpstreamFailure
  @usableFromInline typealias Effects = TimedOperatorEffects<[Input], UpstreamFailure, Time>

  @usableFromInline let interval: Time.Stride
  @usableFromInline let count: Int?
  /// When the open window closes. Windows are half open: [end - interval, end).
  @usableFromInline var windowEnd: Time?
  @usableFromInline var buffer: [Input] = []

  @inlinable
  init(interval: Time.Stride, count: Int?) {
    self.interval = interval
    self.count = count
  }

  @inlinable
  mutating func started(at now: Time) -> Effects {
    windowEnd = now.advanced(by: interval)
    return Effects()
  }

  @inlinable
  mutating func received(_ input: Input, at now: Time) -> Effects {
    var effects = Effects()
    let end = windowEnd ?? now.advanced(by: interval)
    if now >= end {
      // The window the buffer belongs to has closed (its timer is due now, or nothing was
      // held): emit it, and move to the window `now` falls in.
      if !buffer.isEmpty {
        effects.outputs.append(.element(buffer))
        buffer.removeAll()
      }
      windowEnd = end.latestStep(by: interval, notAfter: now).advanced(by: interval)
    } else {
      windowEnd = end
    }
    buffer.append(input)
    if let count, buffer.count >= count {
      effects.outputs.append(.element(buffer))
      buffer.removeAll()
      windowEnd = now.advanced(by: interval)
      effects.timer = .cancel
      return effects
    }
    if buffer.count == 1, let windowEnd { effects.timer = .set(windowEnd) }
    return effects
  }

  @inlinable
  mutating func upstreamFinished(at now: Time) -> Effects {
    var outputs: [TimedOperatorOutput<[Input], UpstreamFailure>] = []
    if !buffer.isEmpty { outputs.append(.element(buffer)) }
    buffer.removeAll()
    outputs.append(.finished)
    return Effects(outputs: outputs, timer: .cancel)
  }

  @inlinable
  mutating func upstreamFailed(_ error: UpstreamFailure, at now: Time) -> Effects {
    buffer.removeAll()
    return Effects(outputs: [.failed(error)], timer: .cancel)
  }

  @inlinable
  mutating func timerFired(at now: Time) -> Effects {
    guard !buffer.isEmpty else { return Effects() }
    let batch = buffer
    buffer.removeAll()
    // The next window starts where this one closed (trusted over `now`: an immediate
    // scheduler fires timers without moving its clock).
    windowEnd = (windowEnd ?? now).advanced(by: interval)
    return Effects(outputs: [.element(batch)])
  }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits at most one element per `interval` of `scheduler`'s time: the first element at
  /// once, then, for elements that arrive too soon, one at the end of the interval: the latest
  /// of them if `latest` is true, the first otherwise.
  ///
  /// ```swift
  /// for await offset in scrollOffsets.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true) {
  ///   updateHeader(for: offset)
  /// }
  /// ```
  ///
  /// With a frame of 100 ms and an interval of 300 ms:
  ///
  /// ```
  /// upstream:         abcd----e---f-g----|
  /// latest: true:     a--d----e---f--g---|
  /// latest: false:    a--b----e---f--g---|
  /// ```
  ///
  /// - Two emissions are never closer than `interval`, the last one included: a finish or
  ///   failure that arrives while an element waits for its slot is delivered right after that
  ///   element, at the end of the interval (as Combine does, and RxJS 7's `throttleTime` with
  ///   `trailing: true`).
  /// - An element arriving `interval` or more after the previous emission is emitted at once.
  /// - The upstream is read from a task that starts with the iteration; cancelling the
  ///   consuming task, or leaving the loop, cancels that task and the pending timer.
  ///
  /// - Precondition: `interval` is not negative.
  public func throttle<S: Scheduler & Sendable>(
    for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
  ) -> SchedulerThrottleSequence<Self, S>
  where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
    precondition(
      interval >= .zero,
      "throttle(for:scheduler:latest:) needs an interval of zero or more, got \(describeStride(interval))"
    )
    return SchedulerThrottleSequence(
      base: self, interval: interval, scheduler: scheduler, edges: .both, latest: latest)
  }

  /// Emits at most one element per `interval` of `scheduler`'s time, from the edges of each
  /// window you choose: the element that opens it (`.leading`, RxJS's default), the latest
  /// that arrived during it (`.trailing`), or both.
  ///
  /// ```swift
  /// // A double tap submits once: the first tap goes, the rest of the second is ignored.
  /// for await tap in taps.throttle(for: .seconds(1), scheduler: scheduler, edges: .leading) {
  ///   submit(tap)
  /// }
  /// ```
  ///
  /// With a frame of 100 ms and an interval of 400 ms, the tables of RxJS 7's `throttleTime`
  /// spec:
  ///
  /// ```
  /// upstream:   -a-xy-----b--x--cxxx--|
  /// .leading:   -a--------b-----c-----|
  /// .trailing:  -----y--------x---x---(x|)
  /// .both:      -a---y----b---x---x---(x|)
  /// ```
  ///
  /// - A window opens when an element arrives while none is open, and lasts `interval`. A
  ///   trailing emission opens the next window at once; a window in which nothing arrived
  ///   closes without emitting, and the next element opens a new one.
  /// - `latest: false` holds the first element of a window for its trailing edge instead of the
  ///   latest (Combine's `latest: false`); it changes nothing for `.leading`.
  /// - A finish or failure that arrives while an element is held goes out right after it, when
  ///   the window closes; otherwise at once (held elements of a `.leading` throttle are
  ///   dropped, as in RxJS).
  /// - `edges: .both` is ``throttle(for:scheduler:latest:)``.
  ///
  /// - Precondition: `interval` is not negative.
  public func throttle<S: Scheduler & Sendable>(
    for interval: S.SchedulerTimeType.Stride, scheduler: S, edges: ThrottleEdges,
    latest: Bool = true
  ) -> SchedulerThrottleSequence<Self, S>
  where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
    precondition(
      interval >= .zero,
      "throttle(for:scheduler:edges:latest:) needs an interval of zero or more, got \(describeStride(interval))"
    )
    return SchedulerThrottleSequence(
      base: self, interval: interval, scheduler: scheduler, edges: edges, latest: latest)
  }
}

/// An asynchronous sequence that emits at most one element per interval. Made by
/// ``_Concurrency/AsyncSequence/throttle(for:scheduler:latest:)`` and
/// ``_Concurrency/AsyncSequence/throttle(for:scheduler:edges:latest:)``.
///
/// ```swift
/// let throttled = offsets.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true)
/// ```
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct SchedulerThrottleSequence<Base: AsyncSequence & Sendable, S: Scheduler & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure
  public typealias AsyncIterator = SchedulerOperatorIterator<Element, Failure>

  @usableFromInline let base: Base
  @usableFromInline let interval: S.SchedulerTimeType.Stride
  @usableFromInline let scheduler: S
  @usableFromInline let edges: ThrottleEdges
  @usableFromInline let latest: Bool

  @inlinable
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(
      base: base, scheduler: scheduler,
      machine: ThrottleMachine(
        interval: interval, edges: edges, latest: latest))
  }
}

/// Throttle, in windows: an element arriving while no window is open opens one, `interval`
/// long. The leading edge emits that element at once; the trailing edge holds the latest (or
/// first) element of the window and emits it when the window closes, which opens the next.
///
/// Two ways to know whether a window is open, one per family:
/// - `.both` (Combine's throttle) goes by the clock: a window is open while `now` is before
///   `windowEnd`, and the timer runs only while an element is held. An element arriving exactly
///   as the interval ends goes out at once, synchronously (a `Throttler` runs it inside `call`).
/// - `.leading` and `.trailing` (RxJS's) go by the timer: a window is open until its timer
///   fires, so an element arriving at the instant a window closes, before the timer runs, is
///   still inside it, as with RxJS's hot observables in its `throttleTime` spec.
/// Both trust `timerFired` over `now`: an immediate scheduler fires timers without moving its
/// clock, and every element then passes.
@usableFromInline
struct ThrottleMachine<Input: Sendable, UpstreamFailure: Error, Time: Strideable & Sendable>:
  CallbackOperatorMachine
where Time.Stride: Sendable {
  @usableFromInline typealias Element = Input
  @usableFromInline typealias Failure = UpstreamFailure
  @usableFromInline typealias Effects = TimedOperatorEffects<Input, UpstreamFailure, Time>
  @usableFromInline typealias Output = TimedOperatorOutput<Input, UpstreamFailure>

  @usableFromInline let interval: Time.Stride
  @usableFromInline let edges: ThrottleEdges
  @usableFromInline let latest: Bool
  /// When the current (or last) window closes.
  @usableFromInline var windowEnd: Time?
  /// The element held for the end of the window.
  @usableFromInline var waiting: Input?
  /// Whether the timer runs: while an element is held (`.both`), or while a window is open
  /// (`.leading`, `.trailing`).
  @usableFromInline var timerRuns = false
  /// A finish or failure that arrived while an element was held.
  @usableFromInline var waitingEnd: Output?

  @inlinable
  init(interval: Time.Stride, edges: ThrottleEdges = .both, latest: Bool) {
    self.interval = interval
    self.edges = edges
    self.latest = latest
  }

  @inlinable
  var holdsElement: Bool { waiting != nil }

  @inlinable
  mutating func received(_ input: Input, at now: Time) -> Effects {
    if edges == .both {
      if timerRuns {
        if latest { waiting = input }
        return Effects()
      }
      if let windowEnd, now < windowEnd {
        waiting = input
        timerRuns = true
        return Effects(timer: .set(windowEnd))
      }
      windowEnd = now.advanced(by: interval)
      return Effects(outputs: [.element(input)])
    }
    if timerRuns {
      if edges.emitsTrailing, waiting == nil || latest { waiting = input }
      return Effects()
    }
    // No window is open: this element opens one.
    let end = now.advanced(by: interval)
    windowEnd = end
    timerRuns = true
    if edges.emitsLeading { return Effects(outputs: [.element(input)], timer: .set(end)) }
    waiting = input
    return Effects(timer: .set(end))
  }

  @inlinable
  mutating func upstreamFinished(at now: Time) -> Effects {
    end(with: .finished)
  }

  @inlinable
  mutating func upstreamFailed(_ error: UpstreamFailure, at now: Time) -> Effects {
    end(with: .failed(error))
  }

  /// A finish or failure waits for a held element, and otherwise goes out at once.
  @inlinable
  mutating func end(with output: Output) -> Effects {
    if waiting != nil {
      waitingEnd = output
      return Effects()
    }
    return Effects(outputs: [output], timer: .cancel)
  }

  /// A flushed element goes out now, and the next window starts now.
  @inlinable
  mutating func flushed(at now: Time) -> Effects {
    guard let element = waiting.take() else {
      // The driver flushes only a held element; without one, its stopped timer ends the window.
      timerRuns = false
      return Effects()
    }
    let end = now.advanced(by: interval)
    windowEnd = end
    var outputs: [Output] = [.element(element)]
    if let waitingEnd = waitingEnd.take() { outputs.append(waitingEnd) }
    if edges == .both {
      timerRuns = false
      return Effects(outputs: outputs, timer: .cancel)
    }
    timerRuns = true
    return Effects(outputs: outputs, timer: .set(end))
  }

  @inlinable
  mutating func timerFired(at now: Time) -> Effects {
    timerRuns = false
    guard let element = waiting.take() else {
      // A window with nothing held closes silently.
      return Effects(outputs: waitingEnd.take().map { [$0] } ?? [])
    }
    var outputs: [Output] = [.element(element)]
    // The trailing emission opens the next window, from the instant the last one closed
    // (trusted over `now`: an immediate scheduler fires timers without moving its clock).
    let end = (windowEnd ?? now).advanced(by: interval)
    windowEnd = end
    if let waitingEnd = waitingEnd.take() {
      outputs.append(waitingEnd)
      return Effects(outputs: outputs)
    }
    if edges == .both { return Effects(outputs: outputs) }
    timerRuns = true
    return Effects(outputs: outputs, timer: .set(end))
  }
}

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
      base: self, interval: interval, scheduler: scheduler, latest: latest)
  }
}

/// An asynchronous sequence that emits at most one element per interval. Made by
/// ``_Concurrency/AsyncSequence/throttle(for:scheduler:latest:)``.
///
/// ```swift
/// let throttled = offsets.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true)
/// ```
public struct SchedulerThrottleSequence<Base: AsyncSequence & Sendable, S: Scheduler & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  let base: Base
  let interval: S.SchedulerTimeType.Stride
  let scheduler: S
  let latest: Bool

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(
      iteration: TimedOperatorIteration(
        base: base, scheduler: scheduler,
        machine: ThrottleMachine(interval: interval, latest: latest)))
  }

  /// The iterator of a throttled sequence. Use it from one task at a time.
  public struct AsyncIterator: AsyncIteratorProtocol {
    typealias Machine = ThrottleMachine<Base.Element, Base.Failure, S.SchedulerTimeType>
    let iteration: TimedOperatorIteration<Base, S, Machine>

    public mutating func next() async throws(Failure) -> Element? {
      try await iteration.next()
    }

    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure)
      -> Element?
    {
      try await iteration.next()
    }
  }
}

/// Throttle: emit at once if the previous emission is at least an interval old; otherwise hold
/// one element (the latest or the first) until the interval has passed.
struct ThrottleMachine<Input: Sendable, UpstreamFailure: Error, Time: Strideable & Sendable>:
  TimedOperatorMachine
where Time.Stride: Sendable {
  typealias Element = Input
  typealias Failure = UpstreamFailure
  typealias Effects = TimedOperatorEffects<Input, UpstreamFailure, Time>
  typealias Output = TimedOperatorOutput<Input, UpstreamFailure>

  let interval: Time.Stride
  let latest: Bool
  var lastEmission: Time?
  /// The element waiting for the end of the interval, when the timer runs.
  var waiting: Input?
  var timerRuns = false
  /// A finish or failure that arrived while an element waited.
  var waitingEnd: Output?

  init(interval: Time.Stride, latest: Bool) {
    self.interval = interval
    self.latest = latest
  }

  mutating func received(_ input: Input, at now: Time) -> Effects {
    if timerRuns {
      if latest { waiting = input }
      return Effects()
    }
    if let lastEmission, now < lastEmission.advanced(by: interval) {
      waiting = input
      timerRuns = true
      return Effects(timer: .set(lastEmission.advanced(by: interval)))
    }
    lastEmission = now
    return Effects(outputs: [.element(input)])
  }

  mutating func upstreamFinished(at now: Time) -> Effects {
    end(with: .finished)
  }

  mutating func upstreamFailed(_ error: UpstreamFailure, at now: Time) -> Effects {
    end(with: .failed(error))
  }

  private mutating func end(with output: Output) -> Effects {
    if timerRuns {
      waitingEnd = output
      return Effects()
    }
    return Effects(outputs: [output])
  }

  /// A flushed element goes out now, and the next interval starts now.
  mutating func flushed(at now: Time) -> Effects {
    var effects = timerFired(at: now)
    if effects.outputs.contains(where: { !$0.isTerminal }) { lastEmission = now }
    effects.timer = .cancel
    return effects
  }

  mutating func timerFired(at now: Time) -> Effects {
    timerRuns = false
    var outputs: [Output] = []
    if let element = waiting.take() {
      outputs.append(.element(element))
      lastEmission = lastEmission.map { $0.advanced(by: interval) } ?? now
    }
    if let end = waitingEnd.take() { outputs.append(end) }
    return Effects(outputs: outputs)
  }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Fails with ``TimeoutError`` when neither an element nor the finish arrives within
  /// `interval` of `scheduler`'s time, counted from the start of the iteration or from the
  /// previous element.
  ///
  /// ```swift
  /// do {
  ///   for try await message in socket.messages.timeout(.seconds(30), scheduler: scheduler) {
  ///     handle(message)
  ///   }
  /// } catch is TimeoutError {
  ///   reconnect()
  /// }
  /// ```
  ///
  /// With a frame of 100 ms and an interval of 300 ms:
  ///
  /// ```
  /// upstream: a-b--c----d|
  /// timeout:  a-b--c--#
  /// ```
  ///
  /// - On a timeout the upstream is cancelled, and the failure is delivered after any elements
  ///   already waiting for the consumer. The upstream's own failure passes through.
  /// - The clock measures the upstream, not the consumer: a slow consumer does not cause a
  ///   timeout, because the upstream is read from a task of its own.
  /// - This fails, as RxJS's `timeout` does; Combine's `timeout` finishes normally unless given
  ///   a custom error.
  ///
  /// - Precondition: `interval` is not negative.
  public func timeout<S: Scheduler & Sendable>(
    _ interval: S.SchedulerTimeType.Stride, scheduler: S
  ) -> SchedulerTimeoutSequence<Self, S>
  where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
    precondition(
      interval >= .zero,
      "timeout(_:scheduler:) needs an interval of zero or more, got \(describeStride(interval))")
    return SchedulerTimeoutSequence(
      base: self, interval: interval, scheduler: scheduler, makeError: { TimeoutError() })
  }

  /// Fails with the error `customError` makes when neither an element nor the finish arrives
  /// within `interval` of `scheduler`'s time, as Combine's `timeout` does with `customError:`.
  ///
  /// ```swift
  /// enum FeedError: Error { case stalled }
  ///
  /// for try await item in feed.timeout(.seconds(10), scheduler: scheduler, customError: { FeedError.stalled }) {
  ///   show(item)
  /// }
  /// ```
  ///
  /// With a frame of 100 ms and an interval of 300 ms, as ``timeout(_:scheduler:)``:
  ///
  /// ```
  /// upstream: a-b--c----d|
  /// timeout:  a-b--c--#      (# is the custom error)
  /// ```
  ///
  /// `customError` is called once, on the timer's thread, when the time is up. To end quietly
  /// instead, as Combine's `timeout` without a custom error does, catch the error you chose
  /// and return.
  ///
  /// - Precondition: `interval` is not negative.
  public func timeout<S: Scheduler & Sendable>(
    _ interval: S.SchedulerTimeType.Stride, scheduler: S,
    customError: @escaping @Sendable () -> any Error
  ) -> SchedulerTimeoutSequence<Self, S>
  where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
    precondition(
      interval >= .zero,
      "timeout(_:scheduler:customError:) needs an interval of zero or more, got \(describeStride(interval))"
    )
    return SchedulerTimeoutSequence(
      base: self, interval: interval, scheduler: scheduler, makeError: customError)
  }
}

/// An asynchronous sequence that fails when its upstream is silent for too long. Made by
/// ``_Concurrency/AsyncSequence/timeout(_:scheduler:)`` and
/// ``_Concurrency/AsyncSequence/timeout(_:scheduler:customError:)``.
///
/// ```swift
/// let guarded = messages.timeout(.seconds(30), scheduler: scheduler)
/// ```
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public struct SchedulerTimeoutSequence<Base: AsyncSequence & Sendable, S: Scheduler & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  public typealias Element = Base.Element
  /// Either the upstream's failure, or ``TimeoutError`` (or the custom error) on a timeout.
  public typealias Failure = any Error
  public typealias AsyncIterator = SchedulerOperatorIterator<Element, Failure>

  @usableFromInline let base: Base
  @usableFromInline let interval: S.SchedulerTimeType.Stride
  @usableFromInline let scheduler: S
  @usableFromInline let makeError: @Sendable () -> any Error

  @inlinable
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(
      base: base, scheduler: scheduler,
      machine: TimeoutMachine(
        interval: interval, makeError: makeError))
  }
}

/// Timeout: a timer restarted by every element; firing fails the sequence with the error
/// `makeError` makes.
@usableFromInline
struct TimeoutMachine<Input: Sendable, UpstreamFailure: Error, Time: Strideable & Sendable>:
  TimedOperatorMachine
where Time.Stride: Sendable {
  @usableFromInline typealias Element = Input
  @usableFromInline typealias Failure = any Error
  @usableFromInline typealias Effects = TimedOperatorEffects<Input, any Error, Time>

  @usableFromInline let interval: Time.Stride
  @usableFromInline let makeError: @Sendable () -> any Error

  @inlinable
  init(interval: Time.Stride, makeError: @escaping @Sendable () -> any Error) {
    self.interval = interval
    self.makeError = makeError
  }

  @inlinable
  mutating func started(at now: Time) -> Effects {
    Effects(timer: .set(now.advanced(by: interval)))
  }

  @inlinable
  mutating func received(_ input: Input, at now: Time) -> Effects {
    Effects(outputs: [.element(input)], timer: .set(now.advanced(by: interval)))
  }

  @inlinable
  mutating func upstreamFinished(at now: Time) -> Effects {
    Effects(outputs: [.finished], timer: .cancel)
  }

  @inlinable
  mutating func upstreamFailed(_ error: UpstreamFailure, at now: Time) -> Effects {
    Effects(outputs: [.failed(error)], timer: .cancel)
  }

  @inlinable
  mutating func timerFired(at now: Time) -> Effects {
    Effects(outputs: [.failed(makeError())])
  }
}

/// A type-erased scheduler, so that code can take a scheduler without a generic parameter.
///
/// A view model that should run on the main queue in production and on a test scheduler in
/// tests takes an `AnySchedulerOf<DispatchQueue>`:
///
/// ```swift
/// final class EpisodeModel: Sendable {
///   let scheduler: AnySchedulerOf<DispatchQueue>
///   init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }
/// }
///
/// let live = EpisodeModel(scheduler: .main)
/// let instant = EpisodeModel(scheduler: .immediate)
/// let test = DispatchQueue.test
/// let controlled = EpisodeModel(scheduler: test.eraseToAnyScheduler())
/// ```
///
/// Every call forwards to the wrapped scheduler, so an erased ``TestScheduler`` is still
/// advanced through the original reference.
public struct AnyScheduler<SchedulerTimeType: Strideable & Sendable, SchedulerOptions>: Scheduler,
  Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable {
  /// The erased scheduler's stride: `SchedulerTimeType.Stride`.
  public typealias Stride = SchedulerTimeType.Stride

  @usableFromInline let _now: @Sendable () -> SchedulerTimeType
  @usableFromInline let _minimumTolerance: @Sendable () -> Stride
  @usableFromInline let _schedule:
    @Sendable (SchedulerOptions?, @escaping @Sendable () -> Void) -> Void
  @usableFromInline let _scheduleAfter:
    @Sendable (SchedulerTimeType, Stride, SchedulerOptions?, @escaping @Sendable () -> Void) ->
      Void
  @usableFromInline let _scheduleRepeating:
    @Sendable (
      SchedulerTimeType, Stride, Stride, SchedulerOptions?, @escaping @Sendable () -> Void
    ) -> any Cancellable
  @usableFromInline let _scheduleCancellable:
    @Sendable (SchedulerTimeType, Stride, SchedulerOptions?, @escaping @Sendable () -> Void) ->
      any Cancellable
  @usableFromInline let _sleepUntil: @Sendable (SchedulerTimeType, Stride?) async throws -> Void
  @usableFromInline let _sleepFor: @Sendable (Stride, Stride?) async throws -> Void

  /// Creates a scheduler from closures, one for each requirement of ``Scheduler``.
  ///
  /// ```swift
  /// let logging = AnySchedulerOf<DispatchQueue>(
  ///   minimumTolerance: { .zero },
  ///   now: { DispatchQueue.main.now },
  ///   scheduleImmediately: { options, action in print("now"); DispatchQueue.main.schedule(options: options, action) },
  ///   delayed: { date, tolerance, options, action in
  ///     DispatchQueue.main.schedule(after: date, tolerance: tolerance, options: options, action)
  ///   },
  ///   interval: { date, interval, tolerance, options, action in
  ///     DispatchQueue.main.schedule(
  ///       after: date, interval: interval, tolerance: tolerance, options: options, action)
  ///   }
  /// )
  /// ```
  public init(
    minimumTolerance: @escaping @Sendable () -> Stride,
    now: @escaping @Sendable () -> SchedulerTimeType,
    scheduleImmediately:
      @escaping @Sendable (SchedulerOptions?, @escaping @Sendable () -> Void)
      -> Void,
    delayed:
      @escaping @Sendable (
        SchedulerTimeType, Stride, SchedulerOptions?, @escaping @Sendable () -> Void
      ) -> Void,
    interval:
      @escaping @Sendable (
        SchedulerTimeType, Stride, Stride, SchedulerOptions?, @escaping @Sendable () -> Void
      ) -> any Cancellable
  ) {
    // Cancellable work and sleeps come from the protocol's defaults over these closures: one
    // implementation of each, shared with every scheduler that does not override them.
    self.init(
      ClosureScheduler(
        minimumTolerance: minimumTolerance, now: now, scheduleImmediately: scheduleImmediately,
        delayed: delayed, interval: interval))
  }

  /// Wraps `scheduler`, forwarding every requirement, sleeps and cancellable work included.
  @inlinable
  public init<S: Scheduler & Sendable>(_ scheduler: S)
  where
    S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions,
    S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable
  {
    self.init(sharing: scheduler)
  }

  /// Wraps a scheduler whose type is not `Sendable` but whose methods may be called from any
  /// thread, as every scheduler's may (a run loop's timers and `perform` are thread-safe).
  @inlinable
  package init<S: Scheduler & SendableMetatype>(sharing scheduler: S)
  where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
    let shared = UncheckedSendable(scheduler)
    _minimumTolerance = { shared.value.minimumTolerance }
    _now = { shared.value.now }
    _schedule = { shared.value.schedule(options: $0, $1) }
    _scheduleAfter = { shared.value.schedule(after: $0, tolerance: $1, options: $2, $3) }
    _scheduleRepeating = {
      shared.value.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4)
    }
    _scheduleCancellable = {
      shared.value.scheduleCancellable(after: $0, tolerance: $1, options: $2, $3)
    }
    _sleepUntil = { try await shared.value.sleep(until: $0, tolerance: $1) }
    _sleepFor = { try await shared.value.sleep(for: $0, tolerance: $1) }
  }

  @inlinable public var now: SchedulerTimeType { _now() }
  @inlinable public var minimumTolerance: Stride { _minimumTolerance() }

  @inlinable
  public func schedule(options: SchedulerOptions?, _ action: @escaping SchedulerAction) {
    let action = sendableAction(action)
    _schedule(options, action)
  }

  @inlinable
  public func schedule(
    after date: SchedulerTimeType, tolerance: Stride, options: SchedulerOptions?,
    _ action: @escaping SchedulerAction
  ) {
    let action = sendableAction(action)
    _scheduleAfter(date, tolerance, options, action)
  }

  @inlinable
  public func schedule(
    after date: SchedulerTimeType, interval: Stride, tolerance: Stride,
    options: SchedulerOptions?, _ action: @escaping SchedulerAction
  ) -> any Cancellable {
    let action = sendableAction(action)
    return _scheduleRepeating(date, interval, tolerance, options, action)
  }

  @inlinable
  public func scheduleCancellable(
    after date: SchedulerTimeType, tolerance: Stride, options: SchedulerOptions?,
    _ action: @escaping @Sendable () -> Void
  ) -> any Cancellable {
    _scheduleCancellable(date, tolerance, options, action)
  }

  @inlinable
  public func sleep(until deadline: SchedulerTimeType, tolerance: Stride?) async throws {
    try await _sleepUntil(deadline, tolerance)
  }

  @inlinable
  public func sleep(for duration: Stride, tolerance: Stride?) async throws {
    try await _sleepFor(duration, tolerance)
  }
}

/// A type-erased scheduler with the same time and option types as `S`.
///
/// ```swift
/// let scheduler: AnySchedulerOf<DispatchQueue> = .main
/// ```
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<
  S.SchedulerTimeType, S.SchedulerOptions
>

extension Scheduler
where Self: Sendable, SchedulerTimeType: Sendable, SchedulerTimeType.Stride: Sendable {
  /// Wraps this scheduler in an ``AnyScheduler``. Erasing an `AnyScheduler` returns it as is.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let model = EpisodeModel(scheduler: scheduler.eraseToAnyScheduler())
  /// ```
  @inlinable
  public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
    if let erased = self as? AnyScheduler<SchedulerTimeType, SchedulerOptions> {
      return erased
    }
    return AnyScheduler(self)
  }
}

/// A scheduler made of closures, so that ``AnyScheduler``'s closure initialiser gets
/// `scheduleCancellable` and the sleeps from the protocol's default implementations.
private struct ClosureScheduler<SchedulerTimeType: Strideable & Sendable, SchedulerOptions>:
  Scheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable {
  typealias Stride = SchedulerTimeType.Stride
  let minimumToleranceClosure: @Sendable () -> Stride
  let nowClosure: @Sendable () -> SchedulerTimeType
  let scheduleImmediately: @Sendable (SchedulerOptions?, @escaping @Sendable () -> Void) -> Void
  let delayed:
    @Sendable (SchedulerTimeType, Stride, SchedulerOptions?, @escaping @Sendable () -> Void) ->
      Void
  let interval:
    @Sendable (
      SchedulerTimeType, Stride, Stride, SchedulerOptions?, @escaping @Sendable () -> Void
    ) -> any Cancellable

  init(
    minimumTolerance: @escaping @Sendable () -> Stride,
    now: @escaping @Sendable () -> SchedulerTimeType,
    scheduleImmediately:
      @escaping @Sendable (SchedulerOptions?, @escaping @Sendable () -> Void) -> Void,
    delayed:
      @escaping @Sendable (
        SchedulerTimeType, Stride, SchedulerOptions?, @escaping @Sendable () -> Void
      ) -> Void,
    interval:
      @escaping @Sendable (
        SchedulerTimeType, Stride, Stride, SchedulerOptions?, @escaping @Sendable () -> Void
      ) -> any Cancellable
  ) {
    minimumToleranceClosure = minimumTolerance
    nowClosure = now
    self.scheduleImmediately = scheduleImmediately
    self.delayed = delayed
    self.interval = interval
  }

  var now: SchedulerTimeType { nowClosure() }
  var minimumTolerance: Stride { minimumToleranceClosure() }

  func schedule(options: SchedulerOptions?, _ action: @escaping SchedulerAction) {
    let action = sendableAction(action)
    scheduleImmediately(options, action)
  }

  func schedule(
    after date: SchedulerTimeType, tolerance: Stride, options: SchedulerOptions?,
    _ action: @escaping SchedulerAction
  ) {
    let action = sendableAction(action)
    delayed(date, tolerance, options, action)
  }

  func schedule(
    after date: SchedulerTimeType, interval: Stride, tolerance: Stride,
    options: SchedulerOptions?, _ action: @escaping SchedulerAction
  ) -> any Cancellable {
    let action = sendableAction(action)
    return self.interval(date, interval, tolerance, options, action)
  }
}

// Where Combine can be imported, Combine's `Scheduler`, with the same requirements and conveniences is used instead; see Sources/Schedulers/PlatformWithCombine/.
#if !canImport(Combine)

  /// A type that decides when and where work runs.
  ///
  /// `Scheduler` has the shape of Combine's protocol of the same name: a notion of the current
  /// time, a minimum tolerance, and three ways to schedule an action (as soon as possible, after a
  /// date, and repeatedly). Code that waits takes a scheduler instead of calling Dispatch directly,
  /// so that production passes a real queue and tests pass a scheduler they control:
  ///
  /// ```swift
  /// final class HomeModel: Sendable {
  ///   let scheduler: AnySchedulerOf<DispatchQueue>
  ///   init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }
  ///
  ///   func refreshSoon(_ refresh: @escaping @Sendable () -> Void) {
  ///     scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10)), refresh)
  ///   }
  /// }
  ///
  /// let live = HomeModel(scheduler: .main)        // waits ten real seconds
  /// let instant = HomeModel(scheduler: .immediate) // runs at once
  /// ```
  ///
  /// The protocol does not refine `Sendable`, as Combine's does not: a `RunLoop` is a scheduler
  /// but not `Sendable`. Every scheduler this package provides is `Sendable`, and the operators,
  /// sleeps, timers and the clock view ask for `some Scheduler & Sendable`. Actions are
  /// `@Sendable` because a scheduler may run them on another thread than the caller's; to touch
  /// `@MainActor` state from an action, write the closure as `{ @MainActor in ... }`, which selects
  /// the main-actor overloads in `Scheduler+MainActor.swift`.
  ///
  /// Like Combine's, it has one primary associated type, the time type, so that
  /// `some Scheduler<DispatchQueue.SchedulerTimeType>` means the same on every platform.
  public protocol Scheduler<SchedulerTimeType> {
    /// The instants of this scheduler's clock.
    associatedtype SchedulerTimeType: Strideable & Sendable
    where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable

    /// Scheduler-specific options, such as a quality of service.
    associatedtype SchedulerOptions

    /// The scheduler's current time.
    var now: SchedulerTimeType { get }

    /// The smallest tolerance this scheduler honours.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Schedules an action to run as soon as possible.
    func schedule(options: SchedulerOptions?, _ action: @escaping SchedulerAction)

    /// Schedules an action to run once, at or after `date`.
    ///
    /// A `date` in the past means "as soon as possible"; no scheduler moves its clock backwards.
    func schedule(
      after date: SchedulerTimeType,
      tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?,
      _ action: @escaping SchedulerAction
    )

    /// Schedules an action to run at `date` and then every `interval`, until cancelled.
    ///
    /// The returned value stops the repetition when cancelled. An `interval` that is zero or
    /// negative is a programming error: conforming schedulers stop with a precondition failure
    /// that names the problem, rather than spin forever.
    func schedule(
      after date: SchedulerTimeType,
      interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?,
      _ action: @escaping SchedulerAction
    ) -> any Cancellable

    /// Schedules an action to run once, at or after `date`, and returns what cancels it.
    ///
    /// The default implementation wraps ``schedule(after:tolerance:options:_:)`` and skips the
    /// action once cancelled; schedulers that can remove pending work, such as
    /// ``TestScheduler``, remove it and release the action at once.
    func scheduleCancellable(
      after date: SchedulerTimeType,
      tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?,
      _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable

    /// Suspends the calling task until `deadline` on this scheduler's clock.
    ///
    /// Returns at once for a deadline at or before ``now``. Throws `CancellationError` as soon
    /// as the task is cancelled, before or while sleeping, and removes the pending wake-up.
    func sleep(until deadline: SchedulerTimeType, tolerance: SchedulerTimeType.Stride?) async throws

    /// Suspends the calling task for `duration` of this scheduler's time.
    ///
    /// Throws `CancellationError` as soon as the task is cancelled, before or while sleeping.
    func sleep(for duration: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride?)
      async throws
  }

  extension Scheduler {
    /// Schedules an action to run as soon as possible, with no options.
    ///
    /// ```swift
    /// DispatchQueue.main.schedule { print("on the main queue") }
    /// ```
    @inlinable
    public func schedule(_ action: @escaping SchedulerAction) {
      schedule(options: nil, action)
    }

    /// Schedules an action to run once at `date`, with this scheduler's minimum tolerance.
    ///
    /// ```swift
    /// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { print("a second later") }
    /// ```
    @inlinable
    public func schedule(
      after date: SchedulerTimeType,
      _ action: @escaping SchedulerAction
    ) {
      schedule(after: date, tolerance: minimumTolerance, options: nil, action)
    }

    /// Schedules an action to run once at `date`, within `tolerance`.
    @inlinable
    public func schedule(
      after date: SchedulerTimeType,
      tolerance: SchedulerTimeType.Stride,
      _ action: @escaping SchedulerAction
    ) {
      schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Schedules an action to run at `date` and then every `interval`, until cancelled.
    ///
    /// ```swift
    /// let ticks = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
    ///   print("tick")
    /// }
    /// // later
    /// ticks.cancel()
    /// ```
    @inlinable
    public func schedule(
      after date: SchedulerTimeType,
      interval: SchedulerTimeType.Stride,
      _ action: @escaping SchedulerAction
    ) -> any Cancellable {
      schedule(
        after: date, interval: interval, tolerance: minimumTolerance, options: nil, action)
    }

    /// Schedules an action to run at `date` and then every `interval` within `tolerance`.
    @inlinable
    public func schedule(
      after date: SchedulerTimeType,
      interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride,
      _ action: @escaping SchedulerAction
    ) -> any Cancellable {
      schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }
  }

#endif

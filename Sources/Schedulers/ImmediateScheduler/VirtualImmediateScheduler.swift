/// A scheduler that runs every action at once, collapsing time to a point, with any
/// scheduler's time and option types (`DispatchQueue.immediate`, `RunLoop.immediate`, ...).
///
/// Not named `ImmediateScheduler`, which is Combine's (a non-generic scheduler with
/// `ImmediateScheduler.shared`): a file that imports SwiftUI and this package sees both. Write
/// ``ImmediateSchedulerOf`` or `.immediate`, which read the same on every platform.
///
/// Use it in tests where waiting is beside the point: a model that delays, debounces or hops
/// queues runs straight through.
///
/// ```swift
/// let model = HomeModel(scheduler: .immediate)
/// model.reloadButtonTapped()  // the ten-second delay has already "passed"
/// ```
///
/// - ``now`` never moves: it is the instant the scheduler was created with.
/// - Delayed work runs at once, whatever its date, and sleeps return at once (after checking
///   for cancellation).
/// - Repeating work runs once, at once, and the returned cancellable does nothing: running it
///   forever would never return. Use ``TestScheduler`` to test repetition.
/// - Nested scheduling does not grow the stack: an action scheduled from inside another one
///   runs as soon as the outer action returns (first-in, first-out), before the outermost
///   `schedule` call returns, on the same thread.
public struct VirtualImmediateScheduler<SchedulerTimeType: Strideable & Sendable, SchedulerOptions>:
  Scheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable {
  /// The instant the scheduler was created with; it never changes.
  public let now: SchedulerTimeType

  /// Creates an immediate scheduler whose clock stands at `now`.
  public init(now: SchedulerTimeType) { self.now = now }

  public var minimumTolerance: SchedulerTimeType.Stride { .zero }

  /// Runs the action at once.
  @inlinable
  public func schedule(options _: SchedulerOptions?, _ action: @escaping SchedulerAction) {
    let action = sendableAction(action)
    ThreadTrampoline.run(action)
  }

  /// Runs the action at once, whatever `date` is.
  @inlinable
  public func schedule(
    after _: SchedulerTimeType, tolerance _: SchedulerTimeType.Stride,
    options _: SchedulerOptions?, _ action: @escaping SchedulerAction
  ) {
    let action = sendableAction(action)
    ThreadTrampoline.run(action)
  }

  /// Runs the action once, at once, and returns a cancellable that does nothing.
  ///
  /// - Precondition: `interval` is greater than zero, as on every scheduler.
  public func schedule(
    after _: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance _: SchedulerTimeType.Stride, options _: SchedulerOptions?,
    _ action: @escaping SchedulerAction
  ) -> any Cancellable {
    let action = sendableAction(action)
    precondition(
      interval > .zero,
      "VirtualImmediateScheduler: a repeating action needs an interval greater than zero, got \(describeStride(interval))"
    )
    ThreadTrampoline.run(action)
    return AnyCancellable {}
  }

  /// Runs the action at once, unless it is nested in another action of this scheduler: then it
  /// runs when the outer action returns, and not at all if cancelled before.
  public func scheduleCancellable(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
  ) -> any Cancellable {
    scheduleSkippingOnceCancelled(after: date, tolerance: tolerance, options: options, action)
  }

  /// Returns at once, unless the task is cancelled: time collapses to a point.
  public func sleep(until _: SchedulerTimeType, tolerance _: SchedulerTimeType.Stride?)
    async throws
  {
    try Task.checkCancellation()
  }

  /// Returns at once, unless the task is cancelled: time collapses to a point.
  public func sleep(for _: SchedulerTimeType.Stride, tolerance _: SchedulerTimeType.Stride?)
    async throws
  {
    try Task.checkCancellation()
  }
}

/// An immediate scheduler with the same time and option types as `S`: a
/// ``VirtualImmediateScheduler``.
///
/// ```swift
/// let scheduler: ImmediateSchedulerOf<DispatchQueue> = DispatchQueue.immediate
/// ```
public typealias ImmediateSchedulerOf<S: Scheduler> = VirtualImmediateScheduler<
  S.SchedulerTimeType, S.SchedulerOptions
>

extension VirtualImmediateScheduler where SchedulerTimeType: VirtualEpochProviding {
  /// Creates an immediate scheduler whose clock stands at its time type's virtual epoch: what
  /// `DispatchQueue.immediate`, `RunLoop.immediate` and `OperationQueue.immediate` give.
  ///
  /// ```swift
  /// let scheduler = ImmediateSchedulerOf<DispatchQueue>()
  /// ```
  public init() { self.init(now: .virtualEpoch) }
}

extension AnyScheduler where SchedulerTimeType: VirtualEpochProviding {
  /// An immediate scheduler, erased.
  ///
  /// ```swift
  /// let model = EpisodeModel(scheduler: .immediate)
  /// ```
  public static var immediate: Self {
    VirtualImmediateScheduler<SchedulerTimeType, SchedulerOptions>().eraseToAnyScheduler()
  }
}

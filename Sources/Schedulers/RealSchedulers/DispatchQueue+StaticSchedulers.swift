import Dispatch

extension DispatchQueue {
  /// The instant that the immediate and test schedulers of dispatch queues start at.
  ///
  /// Not zero: on Apple platforms `DispatchTime(uptimeNanoseconds: 0)` means "now".
  public static var virtualEpoch: SchedulerTimeType {
    SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1))
  }

  /// An immediate scheduler with a dispatch queue's time and option types.
  ///
  /// ```swift
  /// let model = HomeModel(scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
  /// ```
  public static var immediate: ImmediateSchedulerOf<DispatchQueue> {
    VirtualImmediateScheduler(now: virtualEpoch)
  }

  /// A new test scheduler with a dispatch queue's time and option types, starting at
  /// ``virtualEpoch``.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let model = HomeModel(scheduler: scheduler.eraseToAnyScheduler())
  /// scheduler.advance(by: .seconds(10))
  /// ```
  public static var test: TestSchedulerOf<DispatchQueue> { TestScheduler(now: virtualEpoch) }

  /// A test scheduler of dispatch queues with the given order for actions due at the same
  /// instant.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test(order: .shuffled(seed: 42))
  /// ```
  public static func test(order: SameInstantOrder) -> TestSchedulerOf<DispatchQueue> {
    TestScheduler(now: virtualEpoch, order: order)
  }
}

extension AnyScheduler
where
  SchedulerTimeType == DispatchQueue.SchedulerTimeType,
  SchedulerOptions == DispatchQueue.SchedulerOptions
{
  /// The main dispatch queue, erased.
  ///
  /// ```swift
  /// let model = EpisodeModel(scheduler: .main)
  /// ```
  public static var main: Self { DispatchQueue.main.eraseToAnyScheduler() }

  /// The main-queue ``UIScheduler``, erased: runs at once when already on the main queue.
  public static var mainImmediately: Self { UIScheduler.shared.eraseToAnyScheduler() }

  /// A global concurrent dispatch queue, erased.
  public static func global(qos: DispatchQoS.QoSClass = .default) -> Self {
    DispatchQueue.global(qos: qos).eraseToAnyScheduler()
  }

  /// An immediate scheduler, erased.
  ///
  /// ```swift
  /// let model = EpisodeModel(scheduler: .immediate)
  /// ```
  public static var immediate: Self { DispatchQueue.immediate.eraseToAnyScheduler() }
}

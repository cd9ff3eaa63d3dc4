import Dispatch

// `test` and `immediate` are one-line members of the host type itself, not of `VirtualTimeHost`,
// so that beside combine-schedulers they stay ambiguous (VirtualTimeHost.swift says why).
extension DispatchQueue: VirtualTimeHost {
  /// An immediate scheduler with a dispatch queue's time and option types.
  ///
  /// ```swift
  /// let model = HomeModel(scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
  /// ```
  public static var immediate: ImmediateSchedulerOf<DispatchQueue> { .init() }

  /// A new test scheduler with a dispatch queue's time and option types, starting at
  /// ``virtualEpoch``.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let model = HomeModel(scheduler: scheduler.eraseToAnyScheduler())
  /// scheduler.advance(by: .seconds(10))
  /// ```
  public static var test: TestSchedulerOf<DispatchQueue> { .init() }
}

extension AnySchedulerOf<DispatchQueue> {
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
}

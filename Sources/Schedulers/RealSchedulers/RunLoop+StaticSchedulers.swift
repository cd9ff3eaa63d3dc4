import Foundation

extension RunLoop {
  /// The instant that the immediate and test schedulers of run loops start at: 1970-01-01, as
  /// in combine-schedulers.
  public static var virtualEpoch: SchedulerTimeType {
    SchedulerTimeType(Date(timeIntervalSince1970: 0))
  }

  /// An immediate scheduler with a run loop's time and option types.
  ///
  /// ```swift
  /// let scheduler: AnySchedulerOf<RunLoop> = RunLoop.immediate.eraseToAnyScheduler()
  /// ```
  public static var immediate: ImmediateSchedulerOf<RunLoop> {
    VirtualImmediateScheduler(now: virtualEpoch)
  }

  /// A new test scheduler with a run loop's time and option types, starting at
  /// ``virtualEpoch``.
  ///
  /// ```swift
  /// let scheduler = RunLoop.test
  /// scheduler.advance(by: .seconds(1))
  /// ```
  public static var test: TestSchedulerOf<RunLoop> { TestScheduler(now: virtualEpoch) }

  /// A test scheduler of run loops with the given order for actions due at the same instant.
  public static func test(order: SameInstantOrder) -> TestSchedulerOf<RunLoop> {
    TestScheduler(now: virtualEpoch, order: order)
  }

  /// This run loop, erased.
  ///
  /// A run loop is not `Sendable`, but its scheduling methods may be called from any thread
  /// (they add a timer or a block to the loop, which CoreFoundation locks), so the erased
  /// scheduler is `Sendable` and may be handed to any model.
  ///
  /// ```swift
  /// let scheduler = RunLoop.main.eraseToAnyScheduler()
  /// ```
  public func eraseToAnyScheduler() -> AnySchedulerOf<RunLoop> {
    AnyScheduler(sharing: self)
  }
}

extension AnyScheduler
where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
  /// The main run loop, erased.
  ///
  /// ```swift
  /// let scheduler: AnySchedulerOf<RunLoop> = .main
  /// ```
  public static var main: Self { RunLoop.main.eraseToAnyScheduler() }

  /// An immediate scheduler of run loops, erased.
  public static var immediate: Self { RunLoop.immediate.eraseToAnyScheduler() }
}

import Foundation

extension OperationQueue {
  /// The instant that the immediate and test schedulers of operation queues start at:
  /// 1970-01-01, as in combine-schedulers.
  public static var virtualEpoch: SchedulerTimeType {
    SchedulerTimeType(Date(timeIntervalSince1970: 0))
  }

  /// An immediate scheduler with an operation queue's time and option types.
  ///
  /// ```swift
  /// let scheduler: AnySchedulerOf<OperationQueue> = OperationQueue.immediate.eraseToAnyScheduler()
  /// ```
  public static var immediate: ImmediateSchedulerOf<OperationQueue> {
    VirtualImmediateScheduler(now: virtualEpoch)
  }

  /// A new test scheduler with an operation queue's time and option types, starting at
  /// ``virtualEpoch``.
  ///
  /// ```swift
  /// let scheduler = OperationQueue.test
  /// scheduler.advance(by: .seconds(1))
  /// ```
  public static var test: TestSchedulerOf<OperationQueue> { TestScheduler(now: virtualEpoch) }

  /// A test scheduler of operation queues with the given order for actions due at the same
  /// instant.
  public static func test(order: SameInstantOrder) -> TestSchedulerOf<OperationQueue> {
    TestScheduler(now: virtualEpoch, order: order)
  }
}

extension AnyScheduler
where
  SchedulerTimeType == OperationQueue.SchedulerTimeType,
  SchedulerOptions == OperationQueue.SchedulerOptions
{
  /// The main operation queue, erased.
  ///
  /// ```swift
  /// let scheduler: AnySchedulerOf<OperationQueue> = .main
  /// ```
  public static var main: Self { AnyScheduler(sharing: OperationQueue.main) }

  /// An immediate scheduler of operation queues, erased.
  public static var immediate: Self { OperationQueue.immediate.eraseToAnyScheduler() }
}

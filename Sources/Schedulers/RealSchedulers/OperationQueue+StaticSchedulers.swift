import Foundation

// `test` and `immediate` are one-line members of the host type itself (VirtualTimeHost.swift
// says why).
extension OperationQueue: VirtualTimeHost {
  /// An immediate scheduler with an operation queue's time and option types.
  ///
  /// ```swift
  /// let scheduler: AnySchedulerOf<OperationQueue> = OperationQueue.immediate.eraseToAnyScheduler()
  /// ```
  public static var immediate: ImmediateSchedulerOf<OperationQueue> { .init() }

  /// A new test scheduler with an operation queue's time and option types, starting at
  /// ``virtualEpoch``.
  ///
  /// ```swift
  /// let scheduler = OperationQueue.test
  /// scheduler.advance(by: .seconds(1))
  /// ```
  public static var test: TestSchedulerOf<OperationQueue> { .init() }
}

extension AnySchedulerOf<OperationQueue> {
  /// The main operation queue, erased.
  ///
  /// ```swift
  /// let scheduler: AnySchedulerOf<OperationQueue> = .main
  /// ```
  public static var main: Self { AnyScheduler(sharing: OperationQueue.main) }
}

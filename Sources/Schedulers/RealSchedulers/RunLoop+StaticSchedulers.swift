import Foundation

// `test` and `immediate` are one-line members of the host type itself (VirtualTimeHost.swift
// says why).
extension RunLoop: VirtualTimeHost {
  /// An immediate scheduler with a run loop's time and option types.
  ///
  /// ```swift
  /// let scheduler: AnySchedulerOf<RunLoop> = RunLoop.immediate.eraseToAnyScheduler()
  /// ```
  public static var immediate: ImmediateSchedulerOf<RunLoop> { .init() }

  /// A new test scheduler with a run loop's time and option types, starting at
  /// ``virtualEpoch``.
  ///
  /// ```swift
  /// let scheduler = RunLoop.test
  /// scheduler.advance(by: .seconds(1))
  /// ```
  public static var test: TestSchedulerOf<RunLoop> { .init() }

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

extension AnySchedulerOf<RunLoop> {
  /// The main run loop, erased.
  ///
  /// ```swift
  /// let scheduler: AnySchedulerOf<RunLoop> = .main
  /// ```
  public static var main: Self { RunLoop.main.eraseToAnyScheduler() }
}

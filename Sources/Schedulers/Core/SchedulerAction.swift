// (The doc comment is on each branch: above `#if` it would document neither.)
#if canImport(Combine)
  /// The work a scheduler runs: `@Sendable () -> Void` where the package declares ``Scheduler``,
  /// Combine's plain `() -> Void` where Combine does.
  ///
  /// Schedulers take actions of this type in the three `schedule` requirements, so that the same
  /// scheduler conforms to either protocol. Where Combine is absent, actions must be `@Sendable`,
  /// because a scheduler may run them on another thread than the caller's; code written that way
  /// compiles against Combine too.
  ///
  /// ```swift
  /// let action: SchedulerAction = { print("tick") }
  /// DispatchQueue.main.schedule(options: nil, action)
  /// ```
  public typealias SchedulerAction = () -> Void
#else
  /// The work a scheduler runs: `@Sendable () -> Void` where the package declares ``Scheduler``,
  /// Combine's plain `() -> Void` where Combine does.
  ///
  /// Schedulers take actions of this type in the three `schedule` requirements, so that the same
  /// scheduler conforms to either protocol. Where Combine is absent, actions must be `@Sendable`,
  /// because a scheduler may run them on another thread than the caller's; code written that way
  /// compiles against Combine too.
  ///
  /// ```swift
  /// let action: SchedulerAction = { print("tick") }
  /// DispatchQueue.main.schedule(options: nil, action)
  /// ```
  public typealias SchedulerAction = @Sendable () -> Void
#endif

/// An action as the package's schedulers keep it: `@Sendable`.
///
/// Combine's actions are not annotated `@Sendable`, but every Combine scheduler may run them
/// on another thread than the caller's (a dispatch queue, a run loop's thread), so Combine's
/// callers already give actions that are safe to send; the conversion only says so. Function
/// types that differ only in `@Sendable` share one representation.
@inlinable @inline(__always)
package func sendableAction(_ action: @escaping SchedulerAction) -> @Sendable () -> Void {
  #if canImport(Combine)
    unsafeBitCast(action, to: (@Sendable () -> Void).self)
  #else
    action
  #endif
}

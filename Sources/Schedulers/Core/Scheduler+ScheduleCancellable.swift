// The default of `scheduleCancellable`, for schedulers that cannot remove pending work: the
// action stays scheduled and is skipped once cancelled. The test scheduler overrides it to
// remove the entry and release the action at once.

extension Scheduler {
  /// Schedules an action once at `date`, skipping it if the returned value is cancelled first.
  ///
  /// ```swift
  /// let pending = scheduler.scheduleCancellable(
  ///   after: scheduler.now.advanced(by: .seconds(1)), tolerance: .zero, options: nil
  /// ) { print("not if cancelled") }
  /// pending.cancel()
  /// ```
  public func scheduleCancellable(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
  ) -> any Cancellable {
    #if canImport(Combine)
      if let customized = self as? any CustomizedScheduler {
        return customized.forwardScheduleCancellable(
          from: Self.self, after: date, tolerance: tolerance, options: options, action)
      }
    #endif
    return scheduleSkippingOnceCancelled(
      after: date, tolerance: tolerance, options: options, action)
  }

  /// Schedules `action` and returns a flag that makes it do nothing once cancelled.
  func scheduleSkippingOnceCancelled(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
  ) -> any Cancellable {
    let cancelled = CancellationFlag()
    schedule(after: date, tolerance: tolerance, options: options) {
      if !cancelled.isCancelled { action() }
    }
    return cancelled
  }
}

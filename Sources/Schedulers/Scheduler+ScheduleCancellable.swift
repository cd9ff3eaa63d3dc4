// The default of `scheduleCancellable`, for schedulers that cannot remove pending work: the
// action stays scheduled and is skipped once cancelled. The test scheduler overrides it to
// remove the entry and release the action at once.

extension Scheduler {
  /// Schedules an action once at `date`, skipping it if the returned value is cancelled first.
  public func scheduleCancellable(
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

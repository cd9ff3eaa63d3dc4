import Dispatch

extension Scheduler {
  /// Suspends the calling task until `deadline`, on this scheduler's clock.
  ///
  /// ```swift
  /// try await scheduler.sleep(until: scheduler.now.advanced(by: .seconds(1)), tolerance: nil)
  /// ```
  @_specialize(
    exported:true,where
      Self == TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
  )
  public func sleep(until deadline: SchedulerTimeType, tolerance: SchedulerTimeType.Stride?)
    async throws
  {
    #if canImport(Combine)
      if let customized = self as? any CustomSleepingScheduler {
        return try await customized.forwardSleep(
          from: Self.self, until: deadline, tolerance: tolerance)
      }
    #endif
    try Task.checkCancellation()
    if deadline <= now { return }
    // A test scheduler's sleep, outside a deterministic run, may wait for an advance that never
    // comes; its watchdog turns that into a failure instead of a hang.
    let watch = (self as? any StalledSleepWatching)?.stalledSleepWatch()
    try await Schedulers.sleep(watchedBy: watch) { wake in
      scheduleCancellable(
        after: deadline, tolerance: tolerance ?? minimumTolerance, options: nil, wake)
    }
  }

  /// Suspends the calling task for `duration` of this scheduler's time.
  ///
  /// ```swift
  /// try await scheduler.sleep(for: .seconds(1), tolerance: nil)
  /// ```
  @_specialize(
    exported:true,where
      Self == TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
  )
  public func sleep(for duration: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride?)
    async throws
  {
    #if canImport(Combine)
      if let customized = self as? any CustomSleepingScheduler {
        return try await customized.forwardSleep(
          from: Self.self, for: duration, tolerance: tolerance)
      }
    #endif
    try Task.checkCancellation()
    try await sleep(until: now.advanced(by: duration), tolerance: tolerance)
  }

  /// Suspends the calling task for `duration` of this scheduler's time.
  ///
  /// A test scheduler's sleeper wakes when the test advances past its deadline; an immediate
  /// scheduler's returns at once. Cancelling the task ends the sleep with `CancellationError`
  /// and removes its pending wake-up. A test scheduler records the caller's file and line, so
  /// failures about pending work say where each sleep came from.
  ///
  /// ```swift
  /// func countdown(on scheduler: some Scheduler<DispatchQueue.SchedulerTimeType>) async throws {
  ///   for _ in 1...3 { try await scheduler.sleep(for: .seconds(1)) }
  /// }
  /// ```
  @_specialize(
    exported:true,where
      Self == TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
  )
  public func sleep(
    for duration: SchedulerTimeType.Stride,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async throws {
    try await CallSite.$current.withValue(CallSite(fileID: fileID, line: line)) {
      try await sleep(for: duration, tolerance: nil)
    }
  }

  /// Suspends the calling task until `deadline`, returning at once if it has passed.
  ///
  /// ```swift
  /// try await scheduler.sleep(until: deadline)
  /// ```
  @_specialize(
    exported:true,where
      Self == TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
  )
  public func sleep(
    until deadline: SchedulerTimeType,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async throws {
    try await CallSite.$current.withValue(CallSite(fileID: fileID, line: line)) {
      try await sleep(until: deadline, tolerance: nil)
    }
  }
}

#if canImport(Combine)
  /// The package's schedulers that have their own cancellable scheduling and sleeps.
  ///
  /// Where the package declares `Scheduler` (no Combine), `scheduleCancellable` and the two
  /// sleeps are requirements of the protocol, so generic code reaches each scheduler's own
  /// version. Combine's protocol cannot gain requirements, so there they are extension methods,
  /// and the extension hands over to a scheduler's own version through this protocol: a test
  /// scheduler still removes a cancelled action from its queue and records each sleeper's call
  /// site when reached through `some Scheduler`.
  ///
  /// Two protocols, because a conformer must have its own version of each requirement: one
  /// that fell back on the extension would hand over to itself forever.
  package protocol CustomizedScheduler: Scheduler {
    func scheduleCancellable(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable
  }

  // `Caller` is the scheduler's own type seen from the generic extension; the casts are of a
  // type to itself, and always succeed.
  extension CustomizedScheduler {
    func forwardScheduleCancellable<Caller: Scheduler>(
      from _: Caller.Type, after date: Caller.SchedulerTimeType,
      tolerance: Caller.SchedulerTimeType.Stride, options: Caller.SchedulerOptions?,
      _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
      scheduleCancellable(
        after: date as! SchedulerTimeType, tolerance: tolerance as! SchedulerTimeType.Stride,
        options: options as! SchedulerOptions?, action)
    }
  }

  extension CustomSleepingScheduler {
    func forwardSleep<Caller: Scheduler>(
      from _: Caller.Type, until deadline: Caller.SchedulerTimeType,
      tolerance: Caller.SchedulerTimeType.Stride?
    ) async throws {
      try await sleep(
        until: deadline as! SchedulerTimeType, tolerance: tolerance as! SchedulerTimeType.Stride?)
    }

    func forwardSleep<Caller: Scheduler>(
      from _: Caller.Type, for duration: Caller.SchedulerTimeType.Stride,
      tolerance: Caller.SchedulerTimeType.Stride?
    ) async throws {
      try await sleep(
        for: duration as! SchedulerTimeType.Stride,
        tolerance: tolerance as! SchedulerTimeType.Stride?)
    }
  }

  extension TestScheduler: CustomizedScheduler {}
  extension AnyScheduler: CustomizedScheduler, CustomSleepingScheduler {}
  extension VirtualImmediateScheduler: CustomizedScheduler, CustomSleepingScheduler {}
#endif

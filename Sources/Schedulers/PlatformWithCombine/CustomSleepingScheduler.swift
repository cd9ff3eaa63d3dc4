#if canImport(Combine)
  /// The package's schedulers that have their own sleeps (see ``CustomizedScheduler``).
  package protocol CustomSleepingScheduler: Scheduler {
    func sleep(until deadline: SchedulerTimeType, tolerance: SchedulerTimeType.Stride?)
      async throws

    func sleep(for duration: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride?)
      async throws
  }
#endif

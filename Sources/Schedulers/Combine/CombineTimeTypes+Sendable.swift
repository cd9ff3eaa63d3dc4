#if canImport(Combine)
  #if canImport(Foundation)
    import Foundation
  #endif

  // The package's schedulers are `Sendable` and keep their time under a lock, so their time
  // types must be `Sendable`. Combine's scheduler time types are plain values (a `DispatchTime`,
  // a `Date`, an `Int` of nanoseconds, a `TimeInterval`) but are not annotated for strict
  // concurrency; these conformances say what they are. Should an SDK declare them `Sendable`
  // itself, the compiler reports these as redundant and they can go.

  extension DispatchQueue.SchedulerTimeType: @retroactive @unchecked Sendable {}
  extension DispatchQueue.SchedulerTimeType.Stride: @retroactive @unchecked Sendable {}
  extension DispatchQueue.SchedulerOptions: @retroactive @unchecked Sendable {}

  #if canImport(Foundation)
    extension RunLoop.SchedulerTimeType: @retroactive @unchecked Sendable {}
    extension RunLoop.SchedulerTimeType.Stride: @retroactive @unchecked Sendable {}
    extension OperationQueue.SchedulerTimeType: @retroactive @unchecked Sendable {}
    extension OperationQueue.SchedulerTimeType.Stride: @retroactive @unchecked Sendable {}
  #endif
#endif

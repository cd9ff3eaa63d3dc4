// The package's API speaks in dispatch queues (`AnySchedulerOf<DispatchQueue>`,
// `DispatchQueue.test`), so `import Schedulers` alone is enough to use it, on Linux too, where
// Dispatch is not imported implicitly.
@_exported import Dispatch

// Where Combine can be imported, `Scheduler`, `Cancellable`, `AnyCancellable`,
// `SchedulerTimeIntervalConvertible` and the schedulers of `DispatchQueue`, `RunLoop` and
// `OperationQueue` are Combine's, and the package adds to them: one import gives both.
#if canImport(Combine)
  @_exported import Combine
#endif

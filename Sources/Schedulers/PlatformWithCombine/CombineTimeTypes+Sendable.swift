#if canImport(Combine)
  // The package's schedulers are `Sendable` and keep their time under a lock, so their time
  // types must be `Sendable`. Apple's SDKs declare six of Combine's seven scheduler time types
  // `Sendable` (Dispatch's `SchedulerTimeType` and `SchedulerOptions`, RunLoop's and
  // OperationQueue's `SchedulerTimeType` and `Stride`; docs/apple-platforms.md lists the
  // sources), and restating one is an "already stated" warning, an error under
  // warnings-as-errors. Only Dispatch's `Stride` is not
  // (pointfreeco/swift-composable-architecture issue 3812): a plain `Int` of nanoseconds, so the
  // package says what it is. The Combine stand-in CI builds against declares the other six, as
  // Apple does.

  extension DispatchQueue.SchedulerTimeType.Stride: @retroactive @unchecked Sendable {}
#endif

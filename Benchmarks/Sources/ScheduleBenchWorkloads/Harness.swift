/// Keeps a value alive and opaque to the optimiser, so that work producing it is not removed.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Times a workload: `warmUp` untimed runs, then `repetitions` timed runs, checking each
/// count against the workload's expectation.
public func measure(
  _ workload: Workload, size: Int, repetitions: Int, warmUp: Int = 1,
  clock: ContinuousClock = ContinuousClock()
) async throws -> BenchmarkResult {
  if workload.runSynchronously != nil {
    return try measureSynchronously(
      workload, size: size, repetitions: repetitions, warmUp: warmUp, clock: clock)
  }
  var figures: [Double] = []
  for repetition in 0..<(warmUp + repetitions) {
    let start = clock.now
    let ran = await workload.run(size)
    let elapsed = start.duration(to: clock.now)
    try record(
      ran, of: workload, size: size, elapsed: elapsed, timed: repetition >= warmUp, in: &figures)
  }
  return BenchmarkResult(workload: workload.name, size: size, nanosecondsPerAction: figures)
}

/// Times a synchronous workload without any `await`.
///
/// - Precondition: the workload has `runSynchronously`.
public func measureSynchronously(
  _ workload: Workload, size: Int, repetitions: Int, warmUp: Int = 1,
  clock: ContinuousClock = ContinuousClock()
) throws -> BenchmarkResult {
  guard let run = workload.runSynchronously else {
    preconditionFailure("\(workload.name) is asynchronous; measure it with measure(_:)")
  }
  var figures: [Double] = []
  for repetition in 0..<(warmUp + repetitions) {
    let start = clock.now
    let ran = run(size)
    let elapsed = start.duration(to: clock.now)
    try record(
      ran, of: workload, size: size, elapsed: elapsed, timed: repetition >= warmUp, in: &figures)
  }
  return BenchmarkResult(workload: workload.name, size: size, nanosecondsPerAction: figures)
}

/// Checks a run's count, and keeps its time if the run was timed.
private func record(
  _ ran: Int, of workload: Workload, size: Int, elapsed: Duration, timed: Bool,
  in figures: inout [Double]
) throws {
  blackHole(ran)
  let expected = workload.expectedCount(size)
  guard ran == expected else {
    throw MissingActions(workload: workload.name, expected: expected, ran: ran)
  }
  if timed { figures.append(elapsed.nanoseconds / Double(size)) }
}

extension Duration {
  /// The duration in nanoseconds, as a `Double`.
  fileprivate var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}

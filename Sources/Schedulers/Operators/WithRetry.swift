/// Runs `operation` until it succeeds, up to `maxAttempts` times, waiting on `scheduler`
/// between attempts as `backoff` says.
///
/// The first attempt starts at once. When an attempt throws an error that `shouldRetry`
/// accepts, and attempts remain, the call sleeps on the scheduler for the backoff's delay
/// (jitter drawn from `generator`) and tries again. It throws the last error when the attempts
/// run out, or at once an error that `shouldRetry` refuses. Cancellation is never retried:
/// cancelling the caller stops the waiting at once and throws `CancellationError`.
///
/// On a test scheduler the attempts happen at exactly the instants the backoff says:
///
/// ```swift
/// var generator = SystemRandomNumberGenerator()
/// let forecast = try await withRetry(
///   maxAttempts: 4, backoff: .exponential(initial: .seconds(1), maximum: .seconds(30)),
///   scheduler: scheduler, using: &generator
/// ) {
///   try await api.forecast(for: "Oslo")
/// }
/// ```
///
/// The operation runs in the caller's isolation (the `isolation` parameter defaults to it). A
/// test scheduler's pending work names the caller's line as where each wait came from.
///
/// - Precondition: `maxAttempts` is at least 1.
public func withRetry<S: Scheduler & Sendable, R, G: RandomNumberGenerator>(
  maxAttempts: Int,
  backoff: Backoff,
  scheduler: S,
  using generator: inout G,
  retryingWhen shouldRetry: (any Error) -> Bool = { _ in true },
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R
) async throws -> R where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  precondition(
    maxAttempts >= 1, "withRetry(maxAttempts:) needs at least 1 attempt, got \(maxAttempts)")
  var attempt = 1
  while true {
    do {
      return try await operation()
    } catch {
      if error is CancellationError || Task.isCancelled { throw error }
      guard attempt < maxAttempts, shouldRetry(error) else { throw error }
      let delay = backoff.delay(beforeRetry: attempt, using: &generator)
      try await scheduler.sleep(
        for: S.SchedulerTimeType.Stride(delay), fileID: fileID, filePath: filePath, line: line,
        column: column)
      attempt += 1
    }
  }
}

/// Runs `operation` until it succeeds, up to `maxAttempts` times, with jitter (if any) drawn
/// from the system's random-number generator.
///
/// See ``withRetry(maxAttempts:backoff:scheduler:using:retryingWhen:fileID:filePath:line:column:isolation:operation:)``;
/// pass a seeded generator there to test jittered delays.
///
/// ```swift
/// let data = try await withRetry(
///   maxAttempts: 3, backoff: .constant(.seconds(2)), scheduler: scheduler
/// ) {
///   try await api.fetch()
/// }
/// ```
public func withRetry<S: Scheduler & Sendable, R>(
  maxAttempts: Int,
  backoff: Backoff,
  scheduler: S,
  retryingWhen shouldRetry: (any Error) -> Bool = { _ in true },
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R
) async throws -> R where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  var generator = SystemRandomNumberGenerator()
  return try await withRetry(
    maxAttempts: maxAttempts, backoff: backoff, scheduler: scheduler, using: &generator,
    retryingWhen: shouldRetry, fileID: fileID, filePath: filePath, line: line,
    column: column, isolation: isolation,
    operation: operation)
}

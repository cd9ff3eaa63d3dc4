/// Runs every operation concurrently and returns the first outcome: the value, or the error,
/// of whichever finishes first. The others are cancelled.
///
/// ```swift
/// let episode = try await race(
///   { try await cache.episode(42) },
///   { try await network.episode(42) }
/// )
/// ```
///
/// Cancelling the caller cancels every operation. The operations run in child tasks, so the
/// call returns once all of them have finished; operations should honour cancellation.
///
/// - Precondition: there is at least one operation.
public func race<R: Sendable>(
  _ operations: @Sendable () async throws -> R...
) async throws -> R {
  try await race(operations)
}

/// Runs every operation concurrently and returns the first outcome, cancelling the others.
///
/// ```swift
/// let fastest = try await race(mirrors.map { mirror in { try await mirror.download() } })
/// ```
///
/// - Precondition: `operations` is not empty.
public func race<R: Sendable>(
  _ operations: [@Sendable () async throws -> R]
) async throws -> R {
  precondition(!operations.isEmpty, "race needs at least one operation")
  return try await withThrowingTaskGroup(of: R.self) { group in
    for operation in operations {
      group.addTask { try await operation() }
    }
    defer { group.cancelAll() }
    return try await group.next()!
  }
}

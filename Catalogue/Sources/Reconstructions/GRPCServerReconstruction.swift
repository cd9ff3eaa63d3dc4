// Found by the field trial (docs/field-trial.md) in grpc/grpc-swift-2 2.4.3's own suite:
// Tests/GRPCInProcessTransportTests/ClientServerWithMethods.swift, "Actor isolation"
// (`WithMethods.actorIsolation()`); not reported upstream yet.
// `withGRPCServer(transport:services:handleServer:)` starts `server.serve()` in a child task,
// runs the closure, then calls `server.beginGracefulShutdown()`. A shutdown that comes before
// `serve()` has started moves the server from "not started" to "stopped", and `serve()` then
// throws `serverIsStopped` ("The server has stopped and can only be started once."), which the
// task group rethrows: `withGRPCServer` fails though its closure succeeded. The test tolerates
// the same race on the client's side (`clientIsStopped`), not on the server's. First in, first
// out the child task starts serving while the closure waits for its client; another order
// loses it. The fix modelled here (`.fixed`): a server shut down before it started returns
// from `serve()` without an error.

import Synchronization

/// What `serve()` throws when the server was shut down before it started.
public struct ServerIsStopped: Error {}

/// A server with gRPC's life cycle: not started, running, stopping, stopped.
public final class ModelServer: Sendable {
  private enum State { case notStarted, running, stopping, stopped }
  private let state = Mutex(State.notStarted)
  private let version: Version
  private let shutdown = AsyncStream<Void>.makeStream()

  public init(_ version: Version) { self.version = version }

  /// Serves until a graceful shutdown.
  public func serve() async throws {
    let serves = try state.withLock { state -> Bool in
      switch state {
      case .notStarted:
        state = .running
        return true
      case .running, .stopping, .stopped:
        if version == .fixed { return false }
        throw ServerIsStopped()
      }
    }
    guard serves else { return }
    for await _ in shutdown.stream {}
    state.withLock { $0 = .stopped }
  }

  public func beginGracefulShutdown() {
    let wasRunning = state.withLock { state -> Bool in
      switch state {
      case .notStarted:
        state = .stopped
        return false
      case .running:
        state = .stopping
        return true
      case .stopping, .stopped:
        return false
      }
    }
    if wasRunning { shutdown.continuation.finish() }
  }
}

/// `withGRPCServer`: serves in a child task while `handleServer` runs, then shuts down.
public func withModelServer<Result: Sendable>(
  _ version: Version, _ handleServer: (ModelServer) async throws -> Result
) async throws -> Result {
  try await withThrowingDiscardingTaskGroup { group in
    let server = ModelServer(version)
    group.addTask { try await server.serve() }
    let result = try await handleServer(server)
    server.beginGracefulShutdown()
    return result
  }
}

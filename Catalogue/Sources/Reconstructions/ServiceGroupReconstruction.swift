// swift-server/swift-service-lifecycle issue 248 (reported against 2.11.0), fixed by
// swift-server/swift-service-lifecycle PR 250, released by 2.13.0, the release this package
// resolves.
// `ServiceGroup` is an actor; `triggerGracefulShutdown()` on a group still in `.initial` (its
// `run()` not started yet) went straight to `.finished`, and the `run()` that came next threw
// `alreadyFinished`: no service ran, so none did the cleanup it does after its graceful shutdown.
// Symptom: `run()` throws, and the work a shutdown should have let finish is lost. First in, first
// out, the task that runs the group starts before the one that stops it; only the other order loses
// the run. The fix remembers the request and delivers it once `run()` has started the services.

/// A group's failure: what `run()` throws once the group has finished.
public struct AlreadyFinished: Error {}

/// A one-service `ServiceGroup`: the service runs until the graceful shutdown, then cleans up.
public actor ModelServiceGroup {
  enum State {
    case initial(shutdownRequested: Bool)
    case running(shutdown: CheckedContinuation<Void, Never>?, requested: Bool)
    case finished
  }
  private var state = State.initial(shutdownRequested: false)
  private let version: Version
  /// How many times the service cleaned up after its graceful shutdown.
  public private(set) var cleanUps = 0

  public init(_ version: Version) { self.version = version }

  public func run() async throws {
    switch state {
    case .initial(let requested):
      state = .running(shutdown: nil, requested: requested)
    case .running, .finished:
      throw AlreadyFinished()
    }
    // The service: runs until the graceful shutdown.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      if case .running(_, requested: true) = state {
        continuation.resume()
      } else {
        state = .running(shutdown: continuation, requested: false)
      }
    }
    cleanUps += 1
    state = .finished
  }

  public func triggerGracefulShutdown() {
    switch state {
    case .initial:
      // The bug: nothing runs yet, so the group calls itself finished.
      state = version == .buggy ? .finished : .initial(shutdownRequested: true)
    case .running(let shutdown?, _):
      state = .running(shutdown: nil, requested: true)
      shutdown.resume()
    case .running(nil, _):
      state = .running(shutdown: nil, requested: true)
    case .finished:
      break
    }
  }
}

/// swift-server/swift-service-lifecycle issue 248's program: one task runs the group, another
/// triggers its graceful shutdown. Returns how many clean-ups the service did, or the error `run()`
/// threw.
public func runAGroupAndShutItDown(_ version: Version) async -> Result<Int, any Error> {
  let group = ModelServiceGroup(version)
  let runner = Task { try await group.run() }
  let stopper = Task { await group.triggerGracefulShutdown() }
  await stopper.value
  if case .failure(let error) = await runner.result { return .failure(error) }
  return .success(await group.cleanUps)
}

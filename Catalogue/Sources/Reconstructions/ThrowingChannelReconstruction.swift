import Synchronization

// apple/swift-async-algorithms PR 164 ("make the `fail` terminal event non async", first released
// in 0.0.4; apple/swift-async-algorithms PR 167 found the same race). Before it,
// `AsyncThrowingChannel.fail(_:)` was a send like any other: with no iteration waiting, it marked
// the channel terminal and queued itself as a pending send, to be taken by the next `next()`. But
// `next()` looked at the terminal flag first and returned `nil`, so the queued failure was never
// taken: the iteration ended as if the channel had finished cleanly, and the task that called
// `fail` waited for good. First in, first out, the iteration waits before `fail` comes and receives
// the error; only the other order loses it. The fix makes `fail` resume everything at once and
// keeps the error for the next `next()` to throw.

/// An error a channel fails with.
public struct ChannelFailure: Error, Equatable {
  public init() {}
}

/// A throwing channel of `Int`s with the two designs of `fail`.
public final class ModelThrowingChannel: Sendable {
  struct Send {
    var result: Result<Int, ChannelFailure>
    var continuation: CheckedContinuation<Void, Never>
  }
  enum Emission {
    case idle
    case pending([Send])
    case awaiting([CheckedContinuation<Int?, any Error>])
  }
  struct State {
    var emission = Emission.idle
    var terminal = false
    /// The fix's: a failure no iteration has thrown yet.
    var failure: ChannelFailure?
  }

  private let state = Mutex(State())
  private let version: Version

  public init(_ version: Version) { self.version = version }

  public func next() async throws -> Int? {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Int?, any Error>) in
      let resumption = state.withLock { state -> (() -> Void)? in
        if let failure = state.failure {
          state.failure = nil
          return { continuation.resume(throwing: failure) }
        }
        // The bug: terminal is checked before the pending failure is taken.
        if state.terminal { return { continuation.resume(returning: nil) } }
        switch state.emission {
        case .idle:
          state.emission = .awaiting([continuation])
          return nil
        case .pending(var sends):
          let send = sends.removeFirst()
          state.emission = sends.isEmpty ? .idle : .pending(sends)
          return {
            continuation.resume(with: send.result.map { $0 }.mapError { $0 as any Error })
            send.continuation.resume()
          }
        case .awaiting(let nexts):
          state.emission = .awaiting(nexts + [continuation])
          return nil
        }
      }
      resumption?()
    }
  }

  public func fail(_ failure: ChannelFailure) async {
    switch version {
    case .buggy:
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumption = state.withLock { state -> (() -> Void)? in
          if state.terminal { return { continuation.resume() } }
          state.terminal = true
          switch state.emission {
          case .idle:
            state.emission = .pending([Send(result: .failure(failure), continuation: continuation)])
            return nil
          case .pending(let sends):
            state.emission = .pending(
              sends + [Send(result: .failure(failure), continuation: continuation)])
            return nil
          case .awaiting(var nexts):
            let next = nexts.removeFirst()
            state.emission = nexts.isEmpty ? .idle : .awaiting(nexts)
            return {
              next.resume(throwing: failure)
              continuation.resume()
            }
          }
        }
        resumption?()
      }
    case .fixed:
      let (sends, nexts) = state.withLock {
        state -> ([Send], [CheckedContinuation<Int?, any Error>]) in
        if state.terminal { return ([], []) }
        state.terminal = true
        defer { state.emission = .idle }
        switch state.emission {
        case .idle:
          state.failure = failure
          return ([], [])
        case .pending(let sends):
          state.failure = failure
          return (sends, [])
        case .awaiting(let nexts): return ([], nexts)
        }
      }
      for send in sends { send.continuation.resume() }
      for next in nexts { next.resume(throwing: failure) }
    }
  }
}

/// apple/swift-async-algorithms PR 164's program: an iteration and a failure, in either order.
/// `check` is handed what the iteration saw (the failure, or an ending without it, `.success(nil)`)
/// before the program waits for `fail` to return.
public func failAChannelBesideAnIteration(
  _ version: Version, check: (Result<Int?, any Error>) -> Void
) async {
  let channel = ModelThrowingChannel(version)
  let iteration = Task { try await channel.next() }
  let failing = Task { await channel.fail(ChannelFailure()) }
  check(await iteration.result)
  await failing.value  // the bug: never returns when the failure was queued
}

import Synchronization

/// Lets one deterministic run in at a time; the others wait, suspended, in order.
///
/// The run in progress takes every job of the process that may be its test's (`ActiveRuns`), as
/// if its test were the only code running: the main-queue backend cannot tell its own main-actor tasks from others',
/// and an actor two tests share (a singleton such as `APIClient.shared`) runs one test's task
/// inside the other's job, where two runs at once could not keep them apart.
final class RunGate: Sendable {
  static let shared = RunGate()

  private struct State {
    var isTaken = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state = Mutex(State())

  /// Enters at once if no run is in progress and none waits, without suspending; `false` if
  /// the caller must wait (`enter(isolation:)`).
  func tryEnter() -> Bool {
    state.withLock { state in
      guard !state.isTaken, state.waiters.isEmpty else { return false }
      state.isTaken = true
      return true
    }
  }

  /// Waits for its turn, in line, on the caller's actor.
  func enter(isolation: isolated (any Actor)? = #isolation) async {
    await withCheckedContinuation(isolation: isolation) { continuation in
      let enterNow = state.withLock { state -> Bool in
        if !state.isTaken {
          state.isTaken = true
          return true
        }
        state.waiters.append(continuation)
        return false
      }
      if enterNow { continuation.resume() }
    }
  }

  /// Hands the turn to the next run waiting, if any.
  func leave() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      if state.waiters.isEmpty {
        state.isTaken = false
        return nil
      }
      return state.waiters.removeFirst()
    }
    next?.resume()
  }
}

import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension DeterministicExecution {
  /// Whether deterministic runs of different tests proceed side by side in this process, as
  /// Swift Testing runs tests in parallel, rather than one at a time.
  ///
  /// True wherever a backend routes jobs, except with
  /// ``DeterministicExecution/Backend/globalHookAndMainQueue`` (Apple's 18 to 25 generations),
  /// whose runs decide "nothing left to run" from turns on the main queue that another run's
  /// main-actor jobs would disturb, and under `SCHEDULERS_RUNS=take-turns`. Each run side by
  /// side is exact about its own jobs and reports its own deadlock; the main actor stays one
  /// serial executor, on which the runs' main-actor jobs take turns, each run's in its own
  /// order. Tests that share an actor (a global actor other than the main actor, a singleton)
  /// should not run in parallel, with or without deterministic execution: mark their suite
  /// `.serialized`.
  ///
  /// ```swift
  /// @Test(.enabled(if: DeterministicExecution.runsGoSideBySide))
  /// func twoRunsAtOnce() async throws {
  ///   async let first: Int = withDeterministicExecution { 1 }
  ///   async let second: Int = withDeterministicExecution { 2 }
  ///   #expect(try await first + second == 3)
  /// }
  /// ```
  public static var runsGoSideBySide: Bool {
    guard let router = jobRouter else { return false }
    return !router.mainActorJobsStayOnMainQueue && !runsTakeTurns
  }
}

/// `SCHEDULERS_RUNS=take-turns`: deterministic runs take turns, one at a time in the process,
/// instead of going side by side. For measuring what side by side gains, and for tests that
/// share state they cannot keep apart (see `ActiveRuns`). Read once, at the first run.
let runsTakeTurns: Bool = {
  guard let value = getenv("SCHEDULERS_RUNS") else { return false }
  let text = String(cString: value)
  precondition(
    text == "take-turns" || text == "side-by-side",
    "SCHEDULERS_RUNS must be take-turns or side-by-side, got \(text)")
  return text == "take-turns"
}()

/// Lets one deterministic run in at a time; the others wait, suspended, in order. Used where
/// runs take turns: with the main-queue backend, whose runs drive their jobs in turns on the
/// main queue and decide "nothing left to run" from quiet turns that another run's main-actor
/// jobs would disturb, and under `SCHEDULERS_RUNS=take-turns`.
final class RunGate: Sendable {
  static let shared = RunGate()

  private struct State {
    var busy = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state = Mutex(State())

  func enter() async {
    await withCheckedContinuation { continuation in
      let enterNow = state.withLock { state -> Bool in
        if !state.busy {
          state.busy = true
          return true
        }
        state.waiters.append(continuation)
        return false
      }
      if enterNow { continuation.resume() }
    }
  }

  func leave() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      if state.waiters.isEmpty {
        state.busy = false
        return nil
      }
      return state.waiters.removeFirst()
    }
    next?.resume()
  }
}

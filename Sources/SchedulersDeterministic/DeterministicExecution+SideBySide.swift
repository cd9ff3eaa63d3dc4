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
  /// Swift Testing runs tests in parallel, rather than taking turns, one at a time.
  ///
  /// Runs take turns unless the environment variable `SCHEDULERS_RUNS=side-by-side` is set
  /// (read once, at the first run), and always with
  /// ``DeterministicExecution/Backend/globalHookAndMainQueue`` (Apple's 18 to 25 generations),
  /// whose runs decide "nothing left to run" from turns on the main queue that another run's
  /// main-actor jobs would disturb. Side by side, each run is exact about its own jobs and
  /// reports its own deadlock; the main actor stays one serial executor, on which the runs'
  /// main-actor jobs take turns, each run's in its own order. What runs side by side cannot
  /// keep apart is an actor that two tests share (a singleton such as `APIClient.shared`, a
  /// global actor other than the main actor): it may run one run's task inside the other
  /// run's job, unseen by its own run. A run that sees this happen fails, saying so; put such
  /// tests in one suite marked `.serialized`, or leave runs taking turns.
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

/// `SCHEDULERS_RUNS=side-by-side`: deterministic runs of different tests go side by side
/// instead of taking turns (`take-turns`, the default). Opt-in, because tests that share an
/// actor cannot be kept apart side by side (see `ActiveRuns`): such a run fails, saying so.
/// Read once, at the first run.
let runsTakeTurns: Bool = {
  guard let value = getenv("SCHEDULERS_RUNS") else { return true }
  let text = String(cString: value)
  precondition(
    text == "take-turns" || text == "side-by-side",
    "SCHEDULERS_RUNS must be take-turns or side-by-side, got \(text)")
  return text == "take-turns"
}()

/// Lets deterministic runs in up to a width at a time; the others wait, suspended, in order.
///
/// Where runs take turns, the width is one: with the main-queue backend, whose runs drive their
/// jobs in turns on the main queue and decide "nothing left to run" from quiet turns that
/// another run's main-actor jobs would disturb, and by default. Side by side, it is the number
/// of processors, two at least: each run has a driver thread, and a suite that starts a
/// thousand tests at once would otherwise start a thousand threads, which made the suite three
/// times slower than runs taking turns (measured with `suite-bench`).
final class RunGate: Sendable {
  static let shared = RunGate(
    width: DeterministicExecution.runsGoSideBySide ? max(2, processorCount()) : 1)

  private let width: Int
  private struct State {
    var inside = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state = Mutex(State())

  init(width: Int) { self.width = width }

  /// Enters at once if there is room, without suspending; `false` if the caller must wait
  /// (`enter(isolation:)`).
  func tryEnter() -> Bool {
    state.withLock { state in
      guard state.inside < width, state.waiters.isEmpty else { return false }
      state.inside += 1
      return true
    }
  }

  /// Waits for room, in line, on the caller's actor.
  func enter(isolation: isolated (any Actor)? = #isolation) async {
    await withCheckedContinuation(isolation: isolation) { continuation in
      let enterNow = state.withLock { state -> Bool in
        if state.inside < width {
          state.inside += 1
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
        state.inside -= 1
        return nil
      }
      return state.waiters.removeFirst()
    }
    next?.resume()
  }
}

/// The processors online.
private func processorCount() -> Int {
  Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}

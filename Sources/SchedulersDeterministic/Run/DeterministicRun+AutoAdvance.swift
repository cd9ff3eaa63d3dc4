// An auto-advancing run: when nothing in the run can go on, the run's test scheduler runs its
// next pending action (moving its clock there), and the run drains what that made runnable,
// until the body returns. What kotlinx-coroutines-test's `runTest` and Tokio's paused clock do.

import Dispatch
import Schedulers

/// The run's clock, as auto-advance sees it: one action at a time, and how far it has come.
struct AutoAdvanceClock: Sendable {
  /// Runs the next pending action; returns what it was ("a Task.sleep", "repeating every 1 s,
  /// scheduled at Model.swift:12"), or `nil` when nothing is pending (or an advance of the
  /// body's is running).
  let step: @Sendable () -> String?
  /// The virtual time since the run started at which the next action is due.
  let nextDue: @Sendable () -> Duration?
  let maxSteps: Int
  let maxVirtualTime: Duration
}

extension DeterministicRun {
  /// What auto-advance has done so far.
  struct AutoAdvanceState {
    var steps = 0
    /// How often each pending action (by what and where) has run: the bound's report names
    /// those that kept scheduling themselves.
    var runs: [String: Int] = [:]
    /// Set when a bound was reached: the run no longer moves the clock by itself.
    var stopped = false
    /// Set when the clock had nothing pending; reset by the next job, which may schedule some.
    var foundNothing = false
  }

  /// Whether the idle driver should try the clock before it suspects a deadlock.
  func shouldAutoAdvance(_ state: State) -> Bool {
    autoAdvance != nil && !state.autoAdvance.stopped && !state.autoAdvance.foundNothing
  }

  /// One auto-advance step, on the main queue (so that `@MainActor` actions find themselves
  /// there, as they do when a `@MainActor` test advances by hand). Returns a report when a
  /// bound stops auto-advance.
  func autoAdvanceStep(onMainQueue: Bool = false) -> String? {
    guard let clock = autoAdvance else { return nil }
    guard let due = clock.nextDue() else {
      state.withLock { $0.autoAdvance.foundNothing = true }
      return nil
    }
    let steps = state.withLock { $0.autoAdvance.steps }
    if steps >= clock.maxSteps || due > clock.maxVirtualTime {
      return stop(
        because: steps >= clock.maxSteps
          ? "it ran \(clock.maxSteps) actions (maxSteps)"
          : "the next action is due \(describeDuration(due)) after the run started, past maxVirtualTime (\(describeDuration(clock.maxVirtualTime)))"
      )
    }
    let ran =
      onMainQueue ? clock.step() : DispatchQueue.main.sync { ActiveRuns.drivingARun(clock.step) }
    state.withLock { state in
      guard let ran else {
        state.autoAdvance.foundNothing = true
        return
      }
      state.autoAdvance.steps += 1
      state.autoAdvance.runs[ran, default: 0] += 1
    }
    return nil
  }

  private func stop(because reason: String) -> String {
    let runs = state.withLock { state in
      state.autoAdvance.stopped = true
      return state.autoAdvance.runs
    }
    let elapsed = self.elapsed?() ?? .zero
    let busiest = runs.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
      .prefix(3).map { "\($0.key) (ran \($0.value) times)" }
    let culprits =
      busiest.isEmpty ? "" : " What kept scheduling itself: \(busiest.joined(separator: "; "))."
    return """
      Auto-advance stopped at \(describeDuration(elapsed)) of virtual time: \(reason), and \
      the body has not returned.\(culprits)\(pendingSuffix()) The body was cancelled. Endless \
      work (a repeating timer, a polling loop) belongs in DeterministicExecution.background, \
      which the run cancels when the body returns; a test that really needs longer raises \
      the bound with .autoAdvance(maxSteps:maxVirtualTime:).
      """
  }
}

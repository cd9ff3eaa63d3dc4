import Synchronization

/// The meeting point of a sleeping task, the scheduler action that wakes it, and the task's
/// cancellation: whichever comes first wins, and the continuation resumes exactly once.
///
/// The three may arrive in any order and on any threads: the action can fire before the task
/// suspends (an immediate scheduler, a deadline already due), and cancellation can arrive
/// before the entry is scheduled, while the task waits, or after it woke.
final class Sleeper: Sendable {
  private enum Phase {
    case scheduling
    case waiting(CheckedContinuation<Void, any Error>)
    case woke
    /// Cancelled, or ended by the stalled-sleep watchdog: the error the sleep throws.
    case cancelled(any Error)
  }

  private struct State {
    var phase = Phase.scheduling
    var entry: SendableCancellable?
  }

  private let state = Mutex(State())

  /// Keeps the scheduled entry so cancellation can remove it; cancels it at once if the
  /// sleeper was cancelled before the entry existed.
  func attach(_ entry: any Cancellable) {
    let entry = SendableCancellable(entry)
    let cancelNow = state.withLock { state -> Bool in
      if case .cancelled = state.phase { return true }
      state.entry = entry
      return false
    }
    if cancelNow { entry.cancel() }
  }

  /// Suspends the task until `wake()` or `cancel()`, unless one already happened.
  func wait(_ continuation: CheckedContinuation<Void, any Error>) {
    let outcome = state.withLock { state -> Result<Void, any Error>? in
      switch state.phase {
      case .scheduling:
        state.phase = .waiting(continuation)
        return nil
      case .woke: return .success(())
      case .cancelled(let error): return .failure(error)
      case .waiting: preconditionFailure("Sleeper: a sleeper waited twice")
      }
    }
    if let outcome { continuation.resume(with: outcome) }
  }

  /// Called by the scheduler when the deadline comes.
  func wake() {
    let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      switch state.phase {
      case .scheduling:
        state.phase = .woke
        state.entry = nil
        return nil
      case .waiting(let continuation):
        state.phase = .woke
        state.entry = nil
        return continuation
      case .woke, .cancelled: return nil
      }
    }
    continuation?.resume()
  }

  /// Called when the sleeping task is cancelled: removes the entry and throws in the task.
  func cancel() {
    end(throwing: CancellationError())
  }

  /// Removes the entry and throws `error` in the task, unless the sleep already ended.
  func end(throwing error: any Error) {
    let (continuation, entry) = state.withLock {
      state -> (CheckedContinuation<Void, any Error>?, (any Cancellable)?) in
      let entry = state.entry
      state.entry = nil
      switch state.phase {
      case .scheduling:
        state.phase = .cancelled(error)
        return (nil, entry)
      case .waiting(let continuation):
        state.phase = .cancelled(error)
        return (continuation, entry)
      case .woke, .cancelled: return (nil, nil)
      }
    }
    entry?.cancel()
    continuation?.resume(throwing: error)
  }
}

/// Sleeps until `schedule` fires the action it is given, or the task is cancelled.
///
/// - Parameter schedule: schedules the wake-up action and returns what cancels it.
/// - Parameter watch: the watchdog that fails a test stuck on this sleep, and what it reports.
func sleep(
  watchedBy watch: (StalledSleepWatchdog, StalledSleepContext)? = nil,
  scheduling schedule: (@escaping @Sendable () -> Void) -> any Cancellable
) async throws {
  try Task.checkCancellation()
  let sleeper = Sleeper()
  defer { watch?.0.unwatch(sleeper) }
  do {
    try await withTaskCancellationHandler {
      // Watched before it is scheduled: once the scheduler lists the sleep, the watchdog has it.
      if let (watchdog, context) = watch {
        watchdog.watch(sleeper, site: CallSite.current, context: context)
      }
      sleeper.attach(schedule { sleeper.wake() })
      try await withCheckedThrowingContinuation { sleeper.wait($0) }
    } onCancel: {
      sleeper.cancel()
    }
  } catch let stalled as StalledSleepEnded {
    // Recorded here, on the sleeping task, rather than on the watchdog's thread: the task
    // carries its test (a Swift Testing test's `Task {}` inherits it), so the failure is the
    // test's own, and `withKnownIssue` sees it.
    stalled.record()
    throw CancellationError()
  }
}

// Errors that no one can ever see: a task of the run (`Task {}` or `Task.detached {}`) that ends
// by throwing when nothing holds its `Task` handle any more. Swift drops such an error without
// a word; kotlinx-coroutines-test reports the like at the end of the test, and so does a run.
//
// The runtime has no hook that says when a task ends, nor how. The run runs every job of its
// tasks, though, so it sees the last one: it holds a reference to a task while running the
// task's job, and afterwards reads the task's future fragment, which says whether the task has
// ended and how (`include/swift/ABI/Task.h`: `FutureFragment`, a wait-queue word whose low bits
// are the status, 1 for a value and 2 for an error, then the result type, then the error).
// Where that fragment lies in a task is not part of any public interface, so it is not assumed:
// the process finds it once, on tasks it makes for the purpose (`TaskEndingLayout.find()`), and
// reads nothing where it could not. A handle nobody holds any more is one whose task the run's
// own reference alone keeps alive, which the runtime's retain count says.

import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension DeterministicExecution {
  /// What a deterministic run does with the error of a task that ends by throwing when nothing
  /// holds its `Task` handle any more, so that no one can ever await it: an unstructured
  /// `Task {}` whose handle was dropped, say, and whose error Swift would otherwise drop
  /// without a word.
  ///
  /// ```swift
  /// @Test func savingReportsItsFailure() async throws {
  ///   try await withDeterministicExecution(virtualTime: .autoAdvance) { @MainActor in
  ///     let model = DraftModel(client: .failing)
  ///     model.saveButtonTapped()  // Task { try await client.save(draft) }: the error is lost
  ///     // The run records: "A task of the deterministic run ended by throwing
  ///     // MyApp.SaveError.offline, and nothing held its handle…"
  ///   }
  /// }
  /// ```
  ///
  /// Only tasks whose jobs the run runs are seen (not structured child tasks, whose errors
  /// their group or `async let` hands on, and not a main-actor task's last job under the
  /// main-queue backend, which bypasses the run). A task that ends by throwing
  /// `CancellationError` is not reported: it was cancelled, as kotlinx-coroutines-test does not
  /// report a cancelled coroutine either. A handle still held when the task ends (stored in a
  /// property, say) could still be awaited, so its error is not reported either.
  ///
  /// The two cases are stable API; what ``reported`` can see is not promised. Telling how a
  /// task ended reads the runtime's layout of a task, which no API promises, the same layout
  /// that the experimental `droppedTaskErrorsUnseenReason` reports on (behind
  /// `@_spi(Experimental)`). The process finds the layout once, on tasks it makes for the
  /// purpose; where it cannot (a runtime that lays tasks out otherwise), `.reported` reports
  /// nothing, and the first run that asks for it warns once on standard error that dropped
  /// errors are not reported, and why. The run is as deterministic either way.
  public enum DroppedTaskErrors: Sendable, Equatable, CustomStringConvertible {
    /// The run records each such error as a failure of the test, naming it. The default.
    ///
    /// ```swift
    /// try await withDeterministicExecution(droppedTaskErrors: .reported) { await model.save() }
    /// ```
    ///
    /// Where this process's runtime does not lay out a task as the package reads it, nothing is
    /// reported, and a warning on standard error says so once (see ``DroppedTaskErrors``).
    case reported
    /// The run lets them go, as Swift does: for a test that drops errors on purpose.
    ///
    /// ```swift
    /// try await withDeterministicExecution(droppedTaskErrors: .ignored) {
    ///   Task { throw AlreadyGone() }  // meant: nobody needs to know
    /// }
    /// ```
    case ignored

    public var description: String {
      switch self {
      case .reported: "reported"
      case .ignored: "ignored"
      }
    }
  }

  /// Whether this process can tell how a task of a run ended, and so report errors nobody can
  /// await (``DroppedTaskErrors``): `nil` when it can, otherwise why not. Found out the first
  /// time a run starts; `nil` before that too.
  ///
  /// ```swift
  /// @_spi(Experimental) import SchedulersTesting
  ///
  /// if let reason = DeterministicExecution.droppedTaskErrorsUnseenReason { print(reason) }
  /// ```
  ///
  /// > Important: Experimental, behind `@_spi(Experimental)`. It depends on how this process's
  /// > runtime lays out a task, which no API promises: when it is `nil`, and its text, may change
  /// > in a minor release before 1.0.
  @_spi(Experimental) public static var droppedTaskErrorsUnseenReason: String? {
    switch TaskEndingLayout.state.withLock({ $0 }) {
    case .unknown, .found: nil
    case .notFound(let reason): reason
    }
  }
}

/// The run's unstructured tasks in flight, each held alive from its first job on, so that how
/// it ended can be read once the job that ended it has run (that job releases the task, and
/// nothing else might hold it). A task's own job ends only that task; an actor's turn may end
/// any task that ran on the actor, so after one every task in flight is looked at.
///
/// Used only where the run runs its jobs, one at a time: the thread that drives the run (the
/// caller's while it drives in place, or a driver thread), or the main queue while that thread
/// waits.
final class TaskEndingWatch: @unchecked Sendable {
  // `@unchecked Sendable`: the run's jobs run one at a time, each after the previous one has
  // returned, on threads that hand over to each other through a semaphore or a `sync`.
  private var inFlight: Set<UnsafeMutableRawPointer> = []
  /// The errors dropped so far, described.
  private var dropped: [String] = []
  private let layout: TaskEndingLayout
  private let retainCalls: RetainCalls

  /// `nil` where the process cannot tell how a task ended.
  init?() {
    guard let layout = TaskEndingLayout.current, let retainCalls = RetainCalls.found else {
      return nil
    }
    self.layout = layout
    self.retainCalls = retainCalls
  }

  /// Runs `job`, one of the run's own (with `run`), watching the task it belongs to, and notes
  /// the errors of the tasks it ended.
  func running(_ job: UnownedJob, _ run: () -> Void) {
    let address = unsafeBitCast(job, to: UnsafeMutableRawPointer.self)
    let header = TaskHeader(address)
    if header.isTask {
      if header.isUnstructuredFuture, !inFlight.contains(address) {
        // Exactly one reference of the watch's own, whatever copies the compiler makes of
        // values: the count read afterwards must tell it from everyone else's.
        _ = retainCalls.retain(address)
        inFlight.insert(address)
      }
      run()
      if inFlight.contains(address) { lookAt(address) }
    } else {
      run()
      guard !inFlight.isEmpty else { return }
      // In the order the tasks were made (their ids), so that a report lists the same errors in
      // the same order every time.
      let ended = inFlight.filter { layout.hasEnded($0) }
      for task in ended.sorted(by: { TaskHeader($0).id < TaskHeader($1).id }) { lookAt(task) }
    }
  }

  /// If `task` has ended: stops watching it, and notes its error if it threw one other than
  /// `CancellationError` while nothing but the watch held it.
  ///
  /// "Nothing but the watch held it" is read as a strong count of 1, and that reading rests on
  /// three facts, not on a documented meaning of the count:
  /// - `swift_retainCount` is the runtime's strong count of a heap object
  ///   (`include/swift/Runtime/HeapObject.h`, the entry point the standard library's
  ///   `_getRetainCount` calls), and a task is a heap object: a `Task` value is one strong
  ///   reference to it, whoever holds the value (a variable, a `Task` in a property or an
  ///   array); weak and unowned references are not counted.
  /// - The runtime's own reference to a running task is released when the task's last job
  ///   returns, and this is read after that job returned, on the thread that ran it, before
  ///   the run runs anything else: no other job of the run can hold or drop a handle meanwhile.
  /// - The watch holds exactly one reference of its own (taken with `swift_retain`, above).
  /// `anErrorWhoseHandleIsStillHeldIsNotReported` and
  /// `aTaskWhoseHandleWasDroppedFailsTheTestNamingItsError` (DroppedTaskErrorsTests) fail if a
  /// runtime counted otherwise, in either direction.
  private func lookAt(_ task: UnsafeMutableRawPointer) {
    guard layout.hasEnded(task) else { return }
    inFlight.remove(task)
    defer { retainCalls.release(task) }
    guard let error = layout.error(of: task), !(error is CancellationError),
      retainCalls.count(task) == 1
    else { return }
    dropped.append(String(reflecting: error))
  }

  /// Where each task in flight waits, innermost function first, in the order the tasks were
  /// made: read while nothing of the run runs (a deadlock), when every such task is suspended
  /// and held alive by the watch.
  func whereTasksWait() -> [(id: UInt32, resumePoints: [UInt])] {
    inFlight.filter { !layout.hasEnded($0) }
      .map { (id: TaskHeader($0).id, resumePoints: TaskHeader($0).resumePoints()) }
      .sorted { $0.id < $1.id }
  }

  /// Lets go of the tasks still in flight when the run ends (they go on outside it, unwatched),
  /// and returns the errors dropped, described, in the order the tasks ended.
  func stopWatching() -> [String] {
    for task in inFlight { retainCalls.release(task) }
    inFlight.removeAll()
    return dropped
  }
}

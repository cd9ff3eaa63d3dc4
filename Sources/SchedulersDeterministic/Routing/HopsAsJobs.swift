// Hops between actors as jobs: what lets an exploring run put another job between an actor's
// check and its act when the awaited actor answers at once (docs/deterministic-execution.md,
// "Hops between actors").
//
// The runtime runs a hop onto an idle actor, and the hop back, in place inside the job that
// made it (`swift_task_switch`), unless the task prefers a task executor: then every hop parks
// the task and enqueues it, and the actor's turn goes to that executor. A default actor's turn
// takes each task's own preference (`defaultActorDrain`), so only a preference reaches the hops
// inside an actor's turn. The run's body gets one at creation and its child tasks inherit it;
// `Task {}` and `Task.detached` do not, so the task-creation shim (SchedulersTaskCreation, Linux
// only) adds it to each task an exploring run's task creates.

package enum HopsAsJobs {
  /// Whether the tasks that a run's tasks create with `Task {}` or `Task.detached` can be given
  /// the preference in this process: the shim is compiled in and in use.
  package static var reachUnstructuredTasks: Bool { shimIsInUse }

  private static let shimIsInUse: Bool = {
    // A task made here goes through the shim if the executable calls it.
    _ = Task<Void, Never> {}
    return taskCreationIsInterposed()
  }()

  /// Starts giving the preference to the tasks that `run`'s tasks create (while `run` is
  /// active), where the shim is in use.
  static func begin(for run: DeterministicRun) {
    guard run.hopsAreJobs, reachUnstructuredTasks else { return }
    setTaskCreationAdvisor(adviseOnTaskCreation)
  }

  /// Stops it: task creation costs one atomic load again.
  static func end(for run: DeterministicRun) {
    guard run.hopsAreJobs, reachUnstructuredTasks else { return }
    setTaskCreationAdvisor(nil)
  }
}

/// The shim's advisor: the preference of the run whose task creates a task now, when that run
/// takes hops as jobs. Called on every task creation of the process while set, so it reads
/// only the creating task's task-local and the run's constants.
private let adviseOnTaskCreation: TaskCreationAdvisor = {
  _, identity, implementation in
  guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
    let run = ActiveRuns.runOfCurrentTask, run.hopsAreJobs,
    let executor = run.router.hopExecutor
  else { return false }
  let words = unsafeBitCast(executor, to: (UnsafeMutableRawPointer?, UInt).self)
  identity.pointee = words.0
  implementation.pointee = words.1
  return true
}

// The shim's two functions (Sources/SchedulersTaskCreation/include/SchedulersTaskCreation.h),
// called by name: importing the C module would make every module that imports this one need
// its module map (the API listing, the doc snippets, the Apple availability check).

/// `schedulers_task_creation_advisor`.
typealias TaskCreationAdvisor =
  @convention(c) (
    Int, UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<UInt>
  ) -> Bool

@_silgen_name("schedulers_set_task_creation_advisor")
private func setTaskCreationAdvisor(_ advisor: TaskCreationAdvisor?)

@_silgen_name("schedulers_task_creation_is_interposed")
private func taskCreationIsInterposed() -> Bool

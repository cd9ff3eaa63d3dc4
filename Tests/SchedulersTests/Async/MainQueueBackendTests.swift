import Dispatch
import Schedulers
@_spi(Experimental) import SchedulersTesting
import Testing

/// What the main-queue backend (the runtime hooks without the main executor's hook, Apple's 18
/// to 25 generations) does differently from the other two, each difference pinned, and the
/// contract it keeps where main-actor jobs never reach the run. CI runs the whole suite under it
/// with `SCHEDULERS_DETERMINISTIC_BACKEND=main-queue`; the tests marked for it run only there.
@Suite("The main-queue backend")
struct MainQueueBackendTests {
  /// Main-actor tasks that wake each other, link by link, have all run when `advance()`
  /// returns, on every backend. (On this backend the main-actor jobs stay on the main queue;
  /// on the Swift 6.3 runtime every link passes through the global executor too, which the
  /// run sees. A chain that never did would be followed for
  /// `DeterministicRun.quietTurnsBeforeIdle` turns of the main queue.)
  @Test(.deterministicExecutionIsAvailable) @MainActor
  func mainActorTasksWakingEachOtherHaveRunWhenAdvanceReturns() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let links = MainActorChain()
      links.start(100)
      await scheduler.advance()
      #expect(links.count == 100)
    }
  }

  /// The difference: the run's jobs that are not main-actor jobs run on the main queue
  /// (in turns between the main-actor jobs), not on a driver thread.
  @Test(.enabled(if: DeterministicExecution.backend == .globalHookAndMainQueue))
  func theRunsOtherJobsRunOnTheMainQueue() async throws {
    let onMain = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: onMain, value: true)
    let observed = Recorder<Bool>()
    try await withDeterministicExecution(scheduler: DispatchQueue.test) {
      await Task.detached { observed.append(DispatchQueue.getSpecific(key: onMain) == true) }
        .value
      observed.append(DispatchQueue.getSpecific(key: onMain) == true)
    }
    #expect(observed.values == [true, true])
  }
}

/// Two main-actor tasks that wake each other through continuations, one link at a time: a
/// continuation resumed on the main actor enqueues its task's next job on the main actor
/// directly, never through the global executor. (A `Task.yield()` or a new task would pass
/// through it.)
@MainActor private final class MainActorChain {
  private(set) var count = 0
  private var parked: CheckedContinuation<Void, Never>?

  func start(_ links: Int) {
    for _ in 0..<2 {
      Task { @MainActor in
        while count < links {
          count += 1
          let other = parked
          await withCheckedContinuation { continuation in
            parked = continuation
            other?.resume()
          }
        }
        let last = parked
        parked = nil
        last?.resume()
      }
    }
  }
}

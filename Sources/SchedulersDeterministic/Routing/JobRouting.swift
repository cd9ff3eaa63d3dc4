// How a deterministic run gets the jobs of the process onto its queue. Three backends do it,
// behind this one contract (see docs/deterministic-execution.md, "Three routing backends"):
//
// - custom executors: the "Custom Main and Global Executors" pitch, shipped in Swift 6.3 as the
//   SPI `ExperimentalCustomExecutors` (CustomExecutorRouting.swift, the only file that names
//   the SPI, compiled only for the toolchains it was verified on);
// - runtime hooks: the hook variables of `libswift_Concurrency`, found with `dlsym` at run
//   time (RuntimeHookRouting.swift), with the main executor's hook (Swift 6.2 runtimes on);
// - global hook and main queue: the same router without the main executor's hook, main-actor
//   jobs staying on the main queue and the run driving its jobs in turns there
//   (Heuristics/DeterministicRun+MainQueueTurns.swift).
//
// The run (Run/DeterministicRun.swift) knows none of them: it asks the selected backend to start
// and stop routing, to run a job it took from its queue, and to hand a job back to whoever is
// in charge when the run ends.

import Dispatch
import Schedulers
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What a deterministic run needs from whatever routes the process's jobs to it.
protocol JobRouter: Sendable {
  /// Which backend this is, as `DeterministicExecution.backend` reports it.
  var backend: DeterministicExecution.Backend { get }

  /// Starts sending jobs to the runs in progress (`ActiveRuns`), when the first begins. Called
  /// before the body's task is created, so the body's first job is routed.
  func beginRouting()

  /// Stops sending jobs to runs (the last run in progress has just ended), and puts back
  /// what was there before the run.
  func endRouting()

  /// What a failure report says when another library replaced the routing during the run, so
  /// that jobs no longer reach it; `nil` while they do.
  var takeoverReport: String? { get }

  /// Puts the run's routing back if another library replaced it (during the job that just
  /// ran), and returns what a report says about it; `nil` when nothing was replaced.
  func takeRoutingBack() -> String?

  /// Runs a job taken from a run's queue, on the calling thread (main-actor jobs: on the main
  /// queue already).
  func run(_ job: UnownedJob, onMainActor: Bool)

  /// Enqueues a job on whichever executor is in charge now (a later run, or the platform's).
  func handBack(_ job: UnownedJob, onMainActor: Bool)

  /// Enqueues a job on the platform's executors, past any run (a job the run does not take).
  func sendToPlatform(_ job: UnownedJob, onMainActor: Bool)

  /// Whether main-actor jobs bypass the run and run on the main queue by themselves, so that
  /// the run must run its own jobs in turns on the main queue (the runtime hooks without the
  /// main executor's hook).
  var mainActorJobsStayOnMainQueue: Bool { get }

  /// Creates the task the body runs in (its first job is the run's). With `hopsAreJobs`, the
  /// task prefers ``hopExecutor``, which its child tasks inherit (`HopsAsJobs`).
  func makeBodyTask(
    hopsAreJobs: Bool, _ operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never>

  /// The task executor that the run's tasks prefer when their hops between actors are to be
  /// jobs of the run (`HopsAsJobs`): the one the run's jobs run on, which sends what is
  /// enqueued on it to the run, or to the platform's executor once the run has ended.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  var hopExecutor: UnownedTaskExecutor? { get }
}

extension JobRouter {
  var mainActorJobsStayOnMainQueue: Bool { false }

  func takeRoutingBack() -> String? { nil }

  /// Enqueues a job on the platform's executors after `delay` of real time (a plain sleep
  /// still pending when its run ended).
  func handBack(_ job: UnownedJob, onMainActor: Bool, after delay: Duration) {
    // About 136 years: longer real-time waits are waits until cancelled, and Dispatch's
    // deadline arithmetic need not hold more.
    let delay = min(delay, .seconds(Int64(1) << 32))
    guard delay > .zero, let nanoseconds = Nanoseconds.checked(delay) else {
      return handBack(job, onMainActor: onMainActor)
    }
    let job = UncheckedSendable(job)
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
      self.handBack(job.value, onMainActor: onMainActor)
    }
  }
}

/// The environment variable that forces a backend, for this package's own tests: `hooks`
/// forces the runtime hooks, `main-queue` the runtime hooks without the main executor's (what
/// Apple's 18 to 25 generations get), `custom-executors` the SPI, `unavailable` simulates a
/// platform with none, `default` (or unset) picks the best the platform has. Read once, when the
/// backend is first asked for. Not for apps, and not needed by tests: the default is the best backend the
/// platform has.
let backendOverrideVariable = "SCHEDULERS_DETERMINISTIC_BACKEND"

/// The backend the variable asks for, if any; a value it does not take stops the process.
let forcedBackend = EnvironmentValue.read(
  backendOverrideVariable, expected: "default, custom-executors, hooks, main-queue or unavailable"
) { ["default", "custom-executors", "hooks", "main-queue", "unavailable"].contains($0) ? $0 : nil }

/// The backend of this process, chosen when first asked for and kept (making a router installs
/// nothing; the first run begins its routing): the custom executors where
/// they are compiled in and the OS has them, the runtime hooks otherwise, or nothing (and a
/// failure at every run) where neither works.
let jobRouter: (any JobRouter)? = {
  switch forcedBackend {
  case "hooks": return hookRouter(routingMainActor: true)
  case "main-queue": return hookRouter(routingMainActor: false)
  case "unavailable": return nil
  case "custom-executors": return CustomExecutorRouter.make()
  default:
    return CustomExecutorRouter.make() ?? hookRouter(routingMainActor: true)
      ?? hookRouter(routingMainActor: false)
  }
}()

/// Whether this process runs on the package's custom executors: set when the first run with
/// that backend begins, never before (reading `DeterministicExecution.backend` installs nothing).
let customExecutorsInstalled = Atomic<Bool>(false)

extension DeterministicExecution {
  /// Whether the package's custom executors are installed in this process (for its tests).
  package static var customExecutorsAreInstalled: Bool {
    customExecutorsInstalled.load(ordering: .acquiring)
  }
}

/// The runtime hooks' router in one of its modes, where the OS has what it needs.
private func hookRouter(routingMainActor: Bool) -> (any JobRouter)? {
  guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
  return RuntimeHookRouter.make(routingMainActor: routingMainActor)
}

/// Why the runtime hooks cannot route here, in one of their modes.
private func hookUnavailableReason(routingMainActor: Bool) -> String {
  guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
    return
      "the runtime hooks need task executors, which arrived with the 18.0 generation of Apple platforms (macOS 15)"
  }
  return RuntimeHookRouter.unavailableReason(routingMainActor: routingMainActor)
}

/// Why no backend routes jobs in this process, for the failure a run records.
let unavailableReason: String = {
  if forcedBackend == "unavailable" {
    return "\(backendOverrideVariable)=unavailable simulates a platform with neither backend"
  }
  if forcedBackend == "custom-executors" {
    return CustomExecutorRouter.unavailableReason
      + " (\(backendOverrideVariable)=custom-executors forbids the runtime hooks)"
  }
  if forcedBackend == "hooks" { return hookUnavailableReason(routingMainActor: true) }
  if forcedBackend == "main-queue" { return hookUnavailableReason(routingMainActor: false) }
  // The mode without the main executor's hook needs less, so its reason is the deeper one.
  return
    "\(CustomExecutorRouter.unavailableReason), and \(hookUnavailableReason(routingMainActor: false))"
}()

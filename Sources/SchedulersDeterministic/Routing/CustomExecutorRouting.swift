// The custom-executors backend: the only file that names the SPI of the "Custom Main and
// Global Executors" pitch (`ExperimentalCustomExecutors`, shipped in Swift 6.3; never accepted
// as a proposal, and still changing upstream). Compiled only for the toolchains it was verified
// on, so a newer compiler whose SPI moved builds the package with the runtime-hooks backend
// instead. A change upstream costs this one file. See ../../../docs/deterministic-execution.md.

#if compiler(>=6.3) && !compiler(>=6.4) && !os(WASI) && !os(Windows)
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

  /// Routes jobs through executors installed with `_createExecutors(factory:)`.
  ///
  /// Installed once per process, when the first run begins, and never swapped back: the
  /// runtime's swap is an unsynchronised write. Not when the router is made: the process
  /// starts on the platform executors (installing before async `main` starts would make the
  /// main thread run the replacement's run loop), and a test that only asks which backend
  /// there is (`DeterministicExecution.backend`) installs nothing. Outside runs the routing
  /// executors forward every job to the platform's, so the process behaves as before.
  struct CustomExecutorRouter: JobRouter {
    static let unavailableReason =
      "the custom executors need the 26.4 generation of Apple platforms"

    /// The router, not yet installed; `nil` where the OS lacks the runtime side.
    static func make() -> CustomExecutorRouter? {
      guard #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) else {
        return nil
      }
      return CustomExecutorRouter()
    }

    /// Installs the routing executors, the first time only.
    private static let install: Void = {
      guard #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) else {
        return
      }
      _createExecutors(factory: RoutingExecutorFactory.self)
      customExecutorsInstalled.store(true, ordering: .releasing)
    }()

    var backend: DeterministicExecution.Backend { .customExecutors }

    // Installed by the first run; then the executors ask `ActiveRuns` about every job, and
    // there is nothing to switch.
    func beginRouting() { _ = Self.install }
    func endRouting() {}
    var takeoverReport: String? { nil }

    func run(_ job: UnownedJob, onMainActor: Bool) {
      guard #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) else {
        preconditionFailure("Deterministic execution: a job was routed without job routing")
      }
      if onMainActor {
        RoutingMainExecutor.run(job)
      } else {
        RoutingTaskExecutor.shared.run(job)
      }
    }

    func sendToPlatform(_ job: UnownedJob, onMainActor: Bool) {
      guard #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) else {
        preconditionFailure("Deterministic execution: a job was routed without job routing")
      }
      let executor: any RoutingExecutor =
        onMainActor ? RoutingMainExecutor.shared : RoutingTaskExecutor.shared
      executor.platform.enqueue(ExecutorJob(job))
    }

    func makeBodyTask(
      hopsAreJobs: Bool, _ operation: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
      guard hopsAreJobs, #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
      else { return Task(operation: operation) }
      return Task(executorPreference: RoutingTaskExecutor.shared, operation: operation)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    var hopExecutor: UnownedTaskExecutor? {
      guard #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) else {
        return nil
      }
      return RoutingTaskExecutor.shared.asUnownedTaskExecutor()
    }

    func handBack(_ job: UnownedJob, onMainActor: Bool) {
      guard #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) else {
        preconditionFailure("Deterministic execution: a job was routed without job routing")
      }
      if onMainActor {
        RoutingExecutorFactory.mainExecutor.enqueue(ExecutorJob(job))
      } else {
        RoutingExecutorFactory.defaultExecutor.enqueue(ExecutorJob(job))
      }
    }
  }

  // The conformances to the SPI protocols stay internal: the SPI is experimental, so no public
  // declaration of the package depends on it, and nothing outside this file names them.
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  enum RoutingExecutorFactory: ExecutorFactory {
    static let mainExecutor: any MainExecutor = RoutingMainExecutor.shared
    static let defaultExecutor: any TaskExecutor = RoutingTaskExecutor.shared
  }

  /// What both routing executors share: send each job to the run it belongs to, or to the
  /// platform's executor when it belongs to none (see `ActiveRuns`).
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  protocol RoutingExecutor: SchedulingExecutor {
    /// The platform's executor, which gets every job outside runs.
    var platform: any Executor { get }
    /// Whether the jobs this executor receives belong to the main actor.
    var routesMainActorJobs: Bool { get }
  }

  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  extension RoutingExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
      let unowned = UnownedJob(job)
      if let (run, isItsOwn) = ActiveRuns.owner(of: unowned) {
        run.enqueue(unowned, onMainActor: routesMainActorJobs, isItsOwn: isItsOwn)
      } else {
        platform.enqueue(ExecutorJob(unowned))
      }
    }

    func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
      enqueueTimed(UnownedJob(job), after: delay, fromDeadline: false, tolerance, clock)
    }

    func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
      enqueueTimed(
        UnownedJob(job), after: clock.now.duration(to: instant), fromDeadline: true, tolerance,
        clock)
    }

    private func enqueueTimed<C: Clock>(
      _ job: UnownedJob, after delay: C.Duration, fromDeadline: Bool, _ tolerance: C.Duration?,
      _ clock: C
    ) {
      // Only the run's own tasks sleep on its virtual clock. This is called from the sleeping
      // task, so its task-locals tell whether it belongs to the run: the sleep of a test's
      // time limit, or of an unrelated test running in parallel, keeps real time.
      if let run = ActiveRuns.runOfCurrentTask,
        run.enqueue(
          job, onMainActor: routesMainActorJobs, after: delay as? Duration,
          fromDeadline: fromDeadline)
      {
        return
      }
      // Outside runs, and for tasks outside the run, a timed job runs in real time on the
      // platform's executor.
      if let scheduling = platform as? any SchedulingExecutor {
        scheduling.enqueue(ExecutorJob(job), after: delay, tolerance: tolerance, clock: clock)
      } else {
        platform.enqueue(ExecutorJob(job))
      }
    }
  }

  /// The global (default) executor: routes to the job's run, or to the platform's.
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  final class RoutingTaskExecutor: TaskExecutor, RoutingExecutor, @unchecked Sendable {
    // `@unchecked Sendable`: the only property is an immutable reference to a thread-safe
    // executor.
    static let shared = RoutingTaskExecutor()
    let platform: any Executor = PlatformExecutorFactory.defaultExecutor
    var routesMainActorJobs: Bool { false }

    /// Runs a routed job the way the global executor would.
    func run(_ job: UnownedJob) {
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  /// The main actor's executor: routes to the job's run, or to the platform's main executor.
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  final class RoutingMainExecutor: MainExecutor, RoutingExecutor, @unchecked Sendable {
    // `@unchecked Sendable`: the only property is an immutable reference to a thread-safe
    // executor.
    static let shared = RoutingMainExecutor()
    private let mainPlatform = PlatformExecutorFactory.mainExecutor
    var platform: any Executor { mainPlatform }
    var routesMainActorJobs: Bool { true }

    func run() throws { try mainPlatform.run() }
    func runUntil(_ condition: () -> Bool) throws { try mainPlatform.runUntil(condition) }
    func stop() { mainPlatform.stop() }

    /// Main-actor code always runs on the main queue (routed jobs too), so the platform's
    /// check answers.
    func checkIsolated() { mainPlatform.checkIsolated() }

    func isIsolatingCurrentContext() -> Bool? { mainPlatform.isIsolatingCurrentContext() }

    /// Runs a routed main-actor job, on the main queue, with the main actor's identity, so that
    /// isolation checks and `MainActor.assumeIsolated` hold.
    static func run(_ job: UnownedJob) {
      job.runSynchronously(on: MainActor.sharedUnownedExecutor)
    }
  }

#else
  /// This toolchain does not compile the custom executors in: Swift 6.3 is the only one they
  /// were verified on (before it they did not exist, after it their SPI changed).
  struct CustomExecutorRouter {
    static let unavailableReason =
      "this toolchain does not compile the custom executors in (only Swift 6.3 does)"
    static func make() -> (any JobRouter)? { nil }
  }
#endif

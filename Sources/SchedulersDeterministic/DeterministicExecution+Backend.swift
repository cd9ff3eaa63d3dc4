extension DeterministicExecution {
  /// How deterministic execution routes the jobs of a run to its queue in this process.
  ///
  /// Three backends keep the same contract: one job at a time, and "nothing left to run"
  /// decided by the run. The order of the jobs does not depend on timing with the custom
  /// executors; with the runtime hooks, what a task does inside an actor's turn runs out of the
  /// run's sight, so the order there can vary. The package picks the best backend the platform
  /// has when it is first asked, and installs it when the first run begins (reading
  /// ``DeterministicExecution/backend`` installs nothing):
  ///
  /// ```swift
  /// @_spi(Experimental) import SchedulersTesting
  ///
  /// print(DeterministicExecution.backend)
  /// // "custom executors" with Swift 6.3 on Linux or the 26.4 OS generation,
  /// // "runtime hooks" on the 26.0 to 26.3 generations,
  /// // "global hook and main queue" on the 18 to 25 generations
  /// ```
  ///
  /// The differences users can see are ``plainTaskSleepIsVirtual`` (whether a plain
  /// `Task.sleep` inside a run follows the test scheduler's virtual clock) and
  /// ``seesMainActorTasksEnd`` (whether the error a main-actor task drops is reported). Where neither
  /// backend works (WASI, Windows, a runtime without the hooks), every run records a failure
  /// in the running test that says so and why, instead of quietly racing.
  ///
  /// > Important: Experimental, behind `@_spi(Experimental)`: a test that names it imports
  /// > `SchedulersTesting` with `@_spi(Experimental) import SchedulersTesting`. The backends
  /// > follow the concurrency runtime, whose hooks and custom executors are not settled API: a
  /// > minor release before 1.0 may add, remove or rename a case or a property. What a run
  /// > promises (one job at a time, and a failure instead of a hang) holds on every backend.
  @_spi(Experimental) public enum Backend: Sendable, Equatable, CustomStringConvertible {
    /// The custom main and global executors of Swift 6.3 (an SPI, compiled in only for the
    /// toolchains it was verified on, used only where the OS has it).
    case customExecutors
    /// The concurrency runtime's hook variables, found at run time, main executor's included:
    /// the Swift 6.2 runtime on (the 26.0 generation of Apple platforms, and Linux).
    case runtimeHooks
    /// The runtime's global-executor hook only, where the runtime has no hook for the main
    /// executor (the Swift 6.0 and 6.1 runtimes: Apple's 18 to 25 generations). Main-actor
    /// jobs run on the main queue as they always do, and the run runs its other jobs in turns
    /// on the main queue between them, so that the two kinds still take turns in an order that
    /// does not depend on timing. The differences from the other backends: the run's
    /// non-main-actor jobs run on the main thread; and a chain of main-actor jobs that never
    /// passes through the global executor is followed for a bounded number of turns
    /// (docs/deterministic-execution.md, "The main-queue backend").
    case globalHookAndMainQueue
    /// Neither backend works here; the reason says why.
    case unavailable(reason: String)

    public var description: String {
      switch self {
      case .customExecutors: "custom executors"
      case .runtimeHooks: "runtime hooks"
      case .globalHookAndMainQueue: "global hook and main queue"
      case .unavailable(let reason): "unavailable (\(reason))"
      }
    }

    /// Whether runs can route jobs here: `false` only for ``unavailable(reason:)``.
    public var isAvailable: Bool {
      if case .unavailable = self { return false }
      return true
    }

    /// Whether a plain `Task.sleep` of a run's task follows the run's test scheduler.
    ///
    /// True with the custom executors. With the runtime hooks, only on runtimes that send
    /// sleeps through the delay hooks: those before the Swift 6.3 runtime (Apple OSes before
    /// the 26.4 generation, Linux toolchains before 6.3). From 6.3 on, the runtime sends a
    /// plain sleep to the current executor and no hook sees it: it sleeps in real time, and a
    /// run waiting on it alone reports a deadlock that says so. Sleep on the scheduler
    /// (`scheduler.sleep(for:)`, or `Task.sleep(for:clock: scheduler.clock)`) to be virtual on
    /// every backend.
    public var plainTaskSleepIsVirtual: Bool {
      switch self {
      case .customExecutors: true
      case .runtimeHooks, .globalHookAndMainQueue: runtimeCallsDelayHooks
      case .unavailable: false
      }
    }

    /// Whether the run runs a main-actor task's last job, and so reports the error such a
    /// task drops (``DeterministicExecution/DroppedTaskErrors``): not with
    /// ``globalHookAndMainQueue``, where main-actor jobs bypass the run. A task that ends off
    /// the main actor is seen on every backend.
    ///
    /// ```swift
    /// @Test(.enabled(if: DeterministicExecution.backend.seesMainActorTasksEnd))
    /// func aDroppedSaveErrorFailsTheTest() async throws { ... }
    /// ```
    public var seesMainActorTasksEnd: Bool {
      switch self {
      case .customExecutors, .runtimeHooks: true
      case .globalHookAndMainQueue, .unavailable: false
      }
    }
  }

  /// The backend that routes the jobs of deterministic runs in this process.
  ///
  /// ```swift
  /// @_spi(Experimental) import SchedulersTesting
  ///
  /// @Test(.enabled(if: DeterministicExecution.backend.plainTaskSleepIsVirtual))
  /// func plainSleepsAreVirtual() async throws {
  ///   let scheduler = DispatchQueue.test
  ///   try await withDeterministicExecution(scheduler: scheduler) {
  ///     let sleeper = Task { try await Task.sleep(for: .seconds(60)) }
  ///     await scheduler.advance(by: .seconds(60))
  ///     try await sleeper.value
  ///   }
  /// }
  /// ```
  ///
  /// > Important: Experimental, behind `@_spi(Experimental)`, as
  /// > ``DeterministicExecution/Backend`` is.
  @_spi(Experimental) public static var backend: Backend {
    jobRouter?.backend ?? .unavailable(reason: unavailableReason)
  }
}

/// Whether this runtime sends a plain `Task.sleep` through the runtime's delay hooks.
private var runtimeCallsDelayHooks: Bool {
  guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return true }
  return RuntimeHookRouter.runtimeCallsDelayHooks
}

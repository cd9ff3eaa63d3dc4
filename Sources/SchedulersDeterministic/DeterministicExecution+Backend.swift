extension DeterministicExecution {
  /// How deterministic execution routes the jobs of a run to its queue in this process.
  ///
  /// Two backends keep the same contract (one queue, one job at a time, exact idleness). The
  /// package picks the best one the platform has, at the first run:
  ///
  /// ```swift
  /// print(DeterministicExecution.backend)
  /// // "custom executors" with Swift 6.3 on Linux or the 26.4 OS generation,
  /// // "runtime hooks" elsewhere
  /// ```
  ///
  /// The one difference users can see is ``plainTaskSleepIsVirtual``: whether a plain
  /// `Task.sleep` inside a run follows the test scheduler's virtual clock. Where neither
  /// backend works (WASI, Windows, a runtime without the hooks), every run records a failure
  /// in the running test that says so and why, instead of quietly racing.
  public enum Backend: Sendable, Equatable, CustomStringConvertible {
    /// The custom main and global executors of Swift 6.3 (an SPI, compiled in only for the
    /// toolchains it was verified on, used only where the OS has it).
    case customExecutors
    /// The concurrency runtime's hook variables, found at run time: every toolchain, every
    /// Apple OS the package supports, and Linux.
    case runtimeHooks
    /// Neither backend works here; the reason says why.
    case unavailable(reason: String)

    public var description: String {
      switch self {
      case .customExecutors: "custom executors"
      case .runtimeHooks: "runtime hooks"
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
      case .runtimeHooks: RuntimeHookRouter.runtimeCallsDelayHooks
      case .unavailable: false
      }
    }
  }

  /// The backend that routes the jobs of deterministic runs in this process.
  ///
  /// ```swift
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
  public static var backend: Backend {
    jobRouter?.backend ?? .unavailable(reason: unavailableReason)
  }
}

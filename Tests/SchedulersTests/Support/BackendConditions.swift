@_spi(Experimental) import SchedulersTesting
import Testing

extension Trait where Self == ConditionTrait {
  /// For tests of plain `Task.sleep` on the virtual clock: the custom-executors backend, and
  /// the runtime hooks on runtimes before 6.3. Elsewhere a plain sleep is real time, which
  /// `RoutingBackendTests` checks.
  static var plainTaskSleepIsVirtual: Self {
    .enabled(
      if: DeterministicExecution.backend.plainTaskSleepIsVirtual,
      "with the \(DeterministicExecution.backend) backend a plain Task.sleep is real time")
  }

  /// For tests of a main-actor task's dropped error: every backend whose runs run main-actor
  /// jobs (not the main-queue backend, where they bypass the run).
  static var seesMainActorTasksEnd: Self {
    .enabled(
      if: DeterministicExecution.backend.seesMainActorTasksEnd,
      "main-actor jobs bypass the run with the \(DeterministicExecution.backend) backend")
  }

  /// For tests that need a deterministic run: every backend but none.
  static var deterministicExecutionIsAvailable: Self {
    .enabled(
      if: DeterministicExecution.backend.isAvailable,
      "deterministic execution is \(DeterministicExecution.backend)")
  }
}

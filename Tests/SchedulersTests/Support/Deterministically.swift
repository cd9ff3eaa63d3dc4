import Dispatch
import Schedulers
import SchedulersTesting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a story's body under deterministic execution, the way users are told to.
///
/// With `SCHEDULERS_STRESS_WITHOUT_DETERMINISM=1` in the environment it runs the body as a
/// test without this package's deterministic execution would: async `advance` then only wakes
/// sleepers, and the stress run measures how often the stories still pass. Nothing else reads
/// the variable; normal runs always use deterministic execution.
func deterministically(
  _ scheduler: TestSchedulerOf<DispatchQueue>,
  _ body: @escaping @Sendable () async throws -> Void
) async throws {
  if getenv("SCHEDULERS_STRESS_WITHOUT_DETERMINISM").map({ String(cString: $0) }) == "1" {
    try await body()
  } else {
    try await withDeterministicExecution(scheduler: scheduler, body)
  }
}

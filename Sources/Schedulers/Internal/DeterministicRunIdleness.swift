/// What async `advance` and `run()` need of a deterministic run.
package protocol DeterministicRunIdleness: AnyObject, Sendable {
  /// Suspends the caller until no job of the run is runnable.
  func untilIdle() async
}

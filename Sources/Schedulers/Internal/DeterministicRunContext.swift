// The one place where the production library meets deterministic execution, which lives in the
// test-only `SchedulersDeterministic` module: apps link `Schedulers` and never that machinery.
//
// A test scheduler's async `advance` needs a single thing from a run: a way to wait until no
// job of the run is runnable. The run sets itself here for the tasks of its body; outside a
// run this is `nil` and async `advance` yields between steps, as combine-schedulers' does.

/// The deterministic run the current task belongs to, if any.
package enum DeterministicRunContext {
  /// Set by the run for its body, inherited by the tasks it creates (not detached ones).
  @TaskLocal package static var current: (any DeterministicRunIdleness)?
}

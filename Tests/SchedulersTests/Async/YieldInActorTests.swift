@_spi(Experimental) import SchedulersTesting
import Testing

/// `Task.yield()` inside an actor's method: the run's order must not depend on timing there
/// either. From the 6.2 runtime on, such a yield enqueues its continuation on the task's
/// preferred task executor or, without one, on the platform's default executor, which no hook
/// sees: with the runtime hooks it left the run and raced back (4 orders in 200 runs of the
/// test below, before the body's task preferred the run's executor).
@Suite("A yield inside an actor's method")
struct YieldInActorTests {
  actor Journal {
    var entries: [String] = []
    func write(_ name: String) async {
      for line in 0..<5 {
        entries.append("\(name)\(line)")
        await Task.yield()
      }
    }
  }

  /// The body's child tasks (`async let`, task groups) inherit the body task's preference,
  /// so their yields stay in the run on every backend.
  @Test func childTasksInterleaveTheSameWayEveryRun() async throws {
    var orders: Set<[String]> = []
    for _ in 0..<100 {
      let order = try await withDeterministicExecution {
        let journal = Journal()
        async let first: Void = journal.write("a")
        async let second: Void = journal.write("b")
        _ = await (first, second)
        return await journal.entries
      }
      orders.insert(order)
    }
    #expect(orders == [["a0", "b0", "a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"]])
  }

  /// `Task {}` does not inherit a task executor preference: with the runtime hooks on the 6.2
  /// runtime and later, and with the main-queue backend simulated on them, its yields inside
  /// an actor still leave the run (docs/deterministic-execution.md, "Three routing backends").
  @Test(
    .enabled(
      if: DeterministicExecution.backend == .customExecutors,
      "with the \(DeterministicExecution.backend) backend, a yield of a Task {} inside an actor leaves the run"
    ))
  func unstructuredTasksInterleaveTheSameWayEveryRun() async throws {
    var orders: Set<[String]> = []
    for _ in 0..<100 {
      let order = try await withDeterministicExecution {
        let journal = Journal()
        let first = Task { await journal.write("a") }
        let second = Task { await journal.write("b") }
        await first.value
        await second.value
        return await journal.entries
      }
      orders.insert(order)
    }
    #expect(orders == [["a0", "b0", "a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"]])
  }
}

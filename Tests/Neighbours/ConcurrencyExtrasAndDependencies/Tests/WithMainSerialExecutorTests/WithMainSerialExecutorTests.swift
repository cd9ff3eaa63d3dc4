import ConcurrencyExtras
import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

/// A count other tasks can update.
final class Ticks: Sendable {
  private let count = Mutex(0)
  var value: Int { count.withLock { $0 } }
  func increment() { count.withLock { $0 += 1 } }
}

/// `withMainSerialExecutor` and deterministic runs set the same runtime hook
/// (`swift_task_enqueueGlobal_hook`): each must leave the other working, and the hook as it
/// found it. Run under every backend in CI.
@MainActor @Suite(.serialized)
struct WithMainSerialExecutorTests {
  /// The idiom of combine-schedulers' and swift-clocks' suites, with a deterministic run
  /// inside it: the run routes every job (chaining to the serial executor's hook for jobs that
  /// are not its own), and puts the hook back when it ends.
  @Test func aRunInsideWithMainSerialExecutor() async throws {
    #expect(!uncheckedUseMainSerialExecutor)
    let scheduler = DispatchQueue.test
    let ticks = Ticks()
    await withMainSerialExecutor {
      #expect(uncheckedUseMainSerialExecutor)
      try? await withDeterministicExecution(scheduler: scheduler) {
        let ticker = Task {
          for _ in 1...3 {
            try await scheduler.sleep(for: .seconds(1))
            ticks.increment()
          }
        }
        await scheduler.advance(by: .seconds(2))
        #expect(ticks.value == 2)
        await scheduler.advance(by: .seconds(1))
        #expect(ticks.value == 3)
        try await ticker.value
      }
      // The serial executor's hook is back, and still works.
      #expect(uncheckedUseMainSerialExecutor)
      let value = await Task { 42 }.value
      #expect(value == 42)
    }
    #expect(!uncheckedUseMainSerialExecutor)
    #expect(ticks.value == 3)
  }

  /// The other way round: `withMainSerialExecutor` called inside a run (a helper that uses
  /// it, say). With the custom executors the run does not use the hook, so both work. With the
  /// runtime hooks it takes the run's hook over and sends the run's jobs to the main queue,
  /// where the run cannot see them: what follows depends on timing. Usually the run reports a
  /// deadlock that names the cause; on a busy machine the body may also finish by chance, or
  /// an advance return before a task it should have waited for has run (measured here: 7 of 12
  /// runs with both cores busy did not report). Never a hang, and when the run ends the hook
  /// is what it was before the run.
  @Test func withMainSerialExecutorInsideARun() async throws {
    #expect(!uncheckedUseMainSerialExecutor)
    let scheduler = DispatchQueue.test
    let ticks = Ticks()
    let run: @Sendable () async throws -> Void = {
      try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
        await withMainSerialExecutor {
          let ticker = Task {
            try await scheduler.sleep(for: .seconds(1))
            ticks.increment()
          }
          await scheduler.advance(by: .seconds(1))
          #expect(ticks.value == 1)
          try? await ticker.value
        }
      }
    }
    if DeterministicExecution.backend == .runtimeHooks {
      let reports = Mutex<[String]>([])
      await withKnownIssue(isIntermittent: true) {
        try? await run()
      } matching: { issue in
        reports.withLock { $0.append(issue.description) }
        return true
      }
      // A deadlock, when there is one, names the cause.
      for report in reports.withLock({ $0 }) where report.contains("deadlocked") {
        #expect(
          report.contains(
            "The runtime's global enqueue hook was replaced during the run (by withMainSerialExecutor"
          ))
      }
    } else {
      try await run()
      #expect(ticks.value == 1)
    }
    #expect(!uncheckedUseMainSerialExecutor)
  }

  /// Runs one after another, each inside its own `withMainSerialExecutor`: nothing is left
  /// behind from one to the next.
  @Test func runsInAndOutOfTheSerialExecutorAlternate() async throws {
    for round in 1...5 {
      let scheduler = DispatchQueue.test
      let woke = Ticks()
      let body: @Sendable () async throws -> Void = {
        let sleeper = Task {
          try await scheduler.sleep(for: .milliseconds(300))
          woke.increment()
        }
        await scheduler.advance(by: .milliseconds(300))
        #expect(woke.value == 1)
        try await sleeper.value
      }
      if round.isMultiple(of: 2) {
        await withMainSerialExecutor {
          try? await withDeterministicExecution(scheduler: scheduler, body)
        }
      } else {
        try await withDeterministicExecution(scheduler: scheduler, body)
      }
      #expect(woke.value == 1)
      #expect(!uncheckedUseMainSerialExecutor)
    }
  }
}

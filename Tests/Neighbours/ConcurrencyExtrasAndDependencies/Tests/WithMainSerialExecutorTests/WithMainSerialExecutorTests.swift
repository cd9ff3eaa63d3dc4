import ConcurrencyExtras
import Dispatch
import Schedulers
@_spi(Experimental) import SchedulersTesting
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
  /// runtime hooks it replaces the run's hook and sends the jobs enqueued after that to the
  /// main queue, where the run cannot see them. The run notices after the job that replaced
  /// it, puts its own hook back, and always reports it, naming the cause: one outcome, not one
  /// that depends on timing. (What the body does meanwhile may still vary: the jobs of that one
  /// job ran outside the run, so its own expectations are not checked here.) Never a hang, and
  /// when the run ends the hook is what it was before the run.
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
      await withKnownIssue {
        try? await run()
      } matching: { issue in
        reports.withLock { $0.append(issue.description) }
        return true
      }
      #expect(
        reports.withLock { $0 }.contains {
          $0.contains(
            "The runtime's global enqueue hook was replaced during the run (by withMainSerialExecutor"
          ) && $0.contains("The run put its own hook back")
        }, "\(reports.withLock { $0 })")
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

import Dispatch
import Schedulers
import Testing

/// Awaiting pending work outside deterministic execution: resumed by the scheduler itself.
@Suite("Waiting for pending work")
struct WaitForPendingWorkTests {
  @Test func resumesWhenWorkIsScheduledFromAnotherThread() async throws {
    let scheduler = DispatchQueue.test
    let ran = Counter()
    // Work scheduled later, from a thread the test does not await: a callback-based API.
    DispatchQueue.global().async {
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) { ran.increment() }
    }
    try await scheduler.waitForPendingWork(count: 1)
    #expect(scheduler.pendingActionCount == 1)
    await scheduler.advance(by: .seconds(5))
    #expect(ran.value == 1)
  }

  @Test func resumesAtOnceWhenTheWorkIsAlreadyThere() async throws {
    let scheduler = DispatchQueue.test
    scheduler.schedule(after: scheduler.now) {}
    try await scheduler.waitForPendingWork(count: 1)
    try await scheduler.waitForPendingWork(count: 0)
  }

  @Test func waitsForTheNextScheduledActionCountingFromTheCall() async throws {
    let scheduler = DispatchQueue.test
    scheduler.schedule(after: scheduler.now) {}
    let waiting = Task { try await scheduler.waitForNextScheduledAction() }
    // A sleeping task schedules its wake-up when it starts: that is the next action.
    let sleeper = Task { try await scheduler.sleep(for: .seconds(1)) }
    try await waiting.value
    #expect(scheduler.pendingActionCount == 2)
    sleeper.cancel()
    _ = await sleeper.result
  }

  @Test func aTimeoutThrowsNamingWhatWasAwaitedAndWhatIsPending() async throws {
    let scheduler = DispatchQueue.test
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(3))) {}
    let error = await #expect(throws: PendingWorkTimeout.self) {
      try await scheduler.waitForPendingWork(count: 2, timeout: .zero)
    }
    let message = error.map { "\($0)" } ?? ""
    #expect(message.contains("for 2 pending actions on the test scheduler; it has 1 pending"))
    #expect(message.contains("  - an action, due in 3 s"))
    #expect(message.contains("SchedulersTests/WaitForPendingWorkTests.swift"))
    // A test ported with `megaYield` expects work from a task that never ran: the message says
    // what to use instead.
    #expect(message.contains("run the test under `withDeterministicExecution(scheduler:)`"))
  }

  @Test func cancellingTheWaiterEndsTheWait() async throws {
    let scheduler = DispatchQueue.test
    let waiting = Task { try await scheduler.waitForPendingWork(count: 5, timeout: .seconds(60)) }
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
  }
}

import Dispatch
import Schedulers
import SchedulersTesting
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

  /// The doc example's shape: a `@MainActor` model starts a task that schedules its work, and
  /// a `@MainActor` test waits for it. Before the wait took its caller's isolation, the call
  /// hopped off the main actor, the model's task scheduled during the hop, and the wait counted
  /// one too many and timed out, every time.
  @MainActor @Test func waitsForTheNextScheduledActionOfAMainActorModel() async throws {
    let scheduler = DispatchQueue.test
    scheduler.schedule(after: scheduler.now) {}  // already there: not "the next" one
    let model = RefreshModel(scheduler: scheduler.eraseToAnyScheduler())
    model.refreshTapped()
    try await scheduler.waitForNextScheduledAction()
    #expect(scheduler.pendingActionCount == 2)
    await scheduler.advance(by: .seconds(1))
    await model.refresh?.value
    #expect(model.refreshCount == 1)
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

  /// The same inside a deterministic run, where the hop was certain to let the model's task
  /// go first (its job was queued before the hop's), and the wait timed out every time.
  @MainActor @Test func waitsForTheNextScheduledActionOfAMainActorModelInARun() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let model = RefreshModel(scheduler: scheduler.eraseToAnyScheduler())
      model.refreshTapped()
      try await scheduler.waitForNextScheduledAction(timeout: .seconds(10))
      #expect(scheduler.pendingActionCount == 1)
      await scheduler.advance(by: .seconds(1))
      #expect(model.refreshCount == 1)
    }
  }

  @Test(.exitTestOffThePool) func aNegativeCountIsRefusedNamingIt() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try await DispatchQueue.test.waitForPendingWork(count: -1)
    }
    expectStandardError(
      of: result, toContain: "waitForPendingWork(count:) needs a count of zero or more, got -1")
  }
}

/// A model that refreshes a second after a tap, from a task it starts.
@MainActor final class RefreshModel {
  let scheduler: AnySchedulerOf<DispatchQueue>
  var refreshCount = 0
  var refresh: Task<Void, Never>?

  init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }

  func refreshTapped() {
    refresh = Task {
      try? await scheduler.sleep(for: .seconds(1))
      refreshCount += 1
    }
  }
}

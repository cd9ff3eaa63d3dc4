import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

@Suite("The deterministic execution trait")
struct DeterministicTraitTests {
  @Test(.deterministicExecution) @MainActor
  func aTestWithTheTraitAdvancesDeterministically() async {
    let scheduler = DispatchQueue.test
    let model = ChatModel(scheduler: scheduler.eraseToAnyScheduler())
    model.sendButtonTapped("Hello")
    await scheduler.advance()
    #expect(model.countdown == 3)
    await scheduler.advance(by: .seconds(3))
    #expect(model.sentMessages == ["Hello"])
  }

  @Test(.deterministicExecution)
  func outsideWorkStillCompletesUnderTheTrait() async {
    await withOutsideWork { await dispatchHop() }
  }

  /// What `withDeterministicExecution(virtualTime: .autoAdvance)` records at its call, the
  /// auto-advancing trait records at the test's declaration: the sleepers the body left on the
  /// run's clock. The trait's scope is entered here by hand, so that the known issue can wrap it.
  @Test(.plainTaskSleepIsVirtual)
  func theAutoAdvancingTraitReportsSleepersLeftWhenTheBodyReturns() async throws {
    let test = try #require(Test.current)
    let trait: DeterministicExecutionTrait = .deterministicExecution(.autoAdvance)
    let sleeper = Mutex<Task<Void, any Error>?>(nil)
    try await withKnownIssue {
      try await trait.provideScope(for: test, testCase: Test.Case.current) {
        let task = Task(name: "refresh") { try await Task.sleep(for: .seconds(3000)) }
        sleeper.withLock { $0 = task }
        try await Task.sleep(for: .seconds(1))
      }
    } matching: { issue in
      issue.description.contains("finished with work still pending")
        && issue.description.contains("a Task.sleep in task \"refresh\", due in 2999 s")
        && issue.sourceLocation == test.sourceLocation
    }
    // Still asleep outside the run, in real time, so the cancellation is what ends it.
    let task = try #require(sleeper.withLock { $0 })
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}

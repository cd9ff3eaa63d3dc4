import Dispatch
import Schedulers
import SchedulersTesting
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
}

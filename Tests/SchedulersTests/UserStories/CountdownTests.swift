import Dispatch
import Schedulers
import SchedulersTesting
import Testing

// A chat model counts down 3, 2, 1 with one-second pauses before sending a message.
// Injecting the scheduler makes the test advance 1 s three times and observe each step,
// instantly.

extension AsyncStories {
  @Suite("A countdown that does not take 3 seconds")
  struct CountdownTests {
    @Test func eachSecondOfTheCountdownIsObservable() async throws {
      let scheduler = DispatchQueue.test
      try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
        let model = ChatModel(scheduler: scheduler.eraseToAnyScheduler())
        model.sendButtonTapped("Hello")

        await scheduler.advance()
        #expect(model.countdown == 3)
        await scheduler.advance(by: .seconds(1))
        #expect(model.countdown == 2)
        await scheduler.advance(by: .seconds(1))
        #expect(model.countdown == 1)
        #expect(model.sentMessages.isEmpty)
        await scheduler.advance(by: .seconds(1))
        #expect(model.countdown == nil)
        #expect(model.sentMessages == ["Hello"])
      }
    }
  }
}

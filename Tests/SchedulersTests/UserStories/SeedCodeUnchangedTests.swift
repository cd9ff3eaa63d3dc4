import Foundation
import SchedulersTesting
import Testing

// The articles' own production code, tested unchanged: no sleep, clock or scheduler injected.
// The plain `Task.sleep`s inside take no real time, because the run advances virtual time
// whenever nothing else can go on. Each test asserts the states its article asserts.
extension AsyncStories {
  // Serialized: the view states' client is one shared actor (`APIClient.shared`), and the
  // articles' tests assert its state from one test to the next.
  @Suite(
    "Seed code that sleeps, unchanged", .deterministicExecution(.autoAdvance),
    .plainTaskSleepIsVirtual, .serialized)
  @MainActor
  struct SeedCodeUnchangedTests {
    // "Unit Testing Tools" (Kodeco): `testModelCountdown`, without the TimeoutTask and the injected sleep.
    @Test func theBlabberCountdownPostsThreeTwoOneThenTheMessage() async throws {
      let server = ChatServerStub()
      let model = BlabberModel(server: server)
      async let countdown: Void = model.countdown(to: "Tada!")
      async let messages = server.requests.prefix(4).reduce(into: []) { $0.append($1) }
      let (messagesResult, _) = try await (messages, countdown)
      #expect(messagesResult == ["3...", "2...", "1...", "🎉 Tada!"])
    }

    // "非同期処理を含んだViewStateのユニットテスト": the first view state, awaited directly.
    @Test func theFirstViewStateFetchesANumber() async throws {
      let sut = FirstViewState()
      #expect(sut.number == nil)
      try await sut.fetchRandomNumberButtonTapped()
      #expect(!sut.isProcessing)
      #expect((1...100).contains(sut.number ?? 0))
    }

    // The same article: the second view state, its request in a task of its own.
    @Test func theSecondViewStateShowsProgressThenTheNumber() async throws {
      let sut = SecondViewState()
      #expect(sut.number == nil)
      sut.fetchRandomNumberButtonTapped()
      #expect(sut.isProcessing)
      _ = try await sut.fetchRandomNumberTask?.value
      #expect(!sut.isProcessing)
      #expect((1...100).contains(sut.number ?? 0))
    }

    // The same article: cancelling while the client sleeps.
    @Test func cancellingTheSecondViewStatesRequestShowsAnError() async throws {
      let sut = SecondViewState()
      #expect(sut.number == nil)
      sut.fetchRandomNumberButtonTapped()
      // The article waits with a Task.yield loop for the stub to be called; here the run says
      // when the client is asleep.
      await DeterministicExecution.idle()
      #expect(sut.isProcessing)
      let task = sut.fetchRandomNumberTask
      sut.handleCancelButtonTapped()
      _ = try? await task?.value
      #expect(!sut.isProcessing)
      #expect(sut.number == nil)
      #expect(sut.error != nil)
      // Cancelled before the second was up: virtual time never moved.
      #expect(DeterministicExecution.elapsed == .zero)
    }
  }
}

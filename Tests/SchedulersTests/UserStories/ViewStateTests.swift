import Dispatch
import Schedulers
import SchedulersTesting
import Testing

// A `@MainActor` view state has `fetchRandomNumberButtonTapped()` that sets
// `isProcessing`, starts a `Task` that awaits an API client (an actor), stores the number or
// the error, and a cancel button that cancels the task. The tests check the loading state
// while the request is in flight, the result after it completes, and the state after a
// cancel, with no `Task.yield()` loops, no serial-executor tricks, and no repetitions needed.

// `APIClientProtocol` and `APIClient` are the article's (Support/SeedCode).

@MainActor
final class RandomNumberViewState {
  private let apiClient: any APIClientProtocol
  private(set) var number: Int?
  private(set) var fetchRandomNumberTask: Task<Void, Never>?
  private(set) var isProcessing = false
  private(set) var error: (any Error)?

  init(apiClient: any APIClientProtocol) { self.apiClient = apiClient }

  func fetchRandomNumberButtonTapped() {
    isProcessing = true
    error = nil
    fetchRandomNumberTask = Task {
      defer { isProcessing = false }
      do {
        number = try await apiClient.fetchRandomNumber()
      } catch {
        self.error = error
      }
    }
  }

  func cancelButtonTapped() {
    fetchRandomNumberTask?.cancel()
  }
}

extension AsyncStories {
  @Suite("A view state with loading, result, error and cancel")
  struct ViewStateTests {
    @Test(.plainTaskSleepIsVirtual) func isProcessingWhileTheRequestIsInFlight() async throws {
      let scheduler = DispatchQueue.test
      try await deterministically(scheduler) { @MainActor in
        let state = RandomNumberViewState(apiClient: APIClient())
        state.fetchRandomNumberButtonTapped()
        await scheduler.advance()
        #expect(state.isProcessing)
        #expect(state.number == nil)
        await scheduler.advance(by: .seconds(1))  // let the request finish
        #expect(!state.isProcessing)
      }
    }

    @Test(.plainTaskSleepIsVirtual) func storesTheNumberWhenTheRequestCompletes() async throws {
      let scheduler = DispatchQueue.test
      try await deterministically(scheduler) { @MainActor in
        let state = RandomNumberViewState(apiClient: APIClient())
        state.fetchRandomNumberButtonTapped()
        await scheduler.advance(by: .seconds(1))
        #expect(!state.isProcessing)
        #expect(state.number.map { (1...100).contains($0) } == true)
        #expect(state.error == nil)
      }
    }

    @Test func cancellingStopsProcessingAndSetsTheError() async throws {
      let scheduler = DispatchQueue.test
      try await deterministically(scheduler) { @MainActor in
        let state = RandomNumberViewState(apiClient: APIClient())
        state.fetchRandomNumberButtonTapped()
        await scheduler.advance()
        #expect(state.isProcessing)

        state.cancelButtonTapped()
        await scheduler.advance()
        #expect(!state.isProcessing)
        #expect(state.number == nil)
        #expect(state.error is CancellationError)
      }
    }
  }
}

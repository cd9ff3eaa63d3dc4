import SchedulersTesting
import Testing

// A view state whose cancel races its request: the state of a screen with a "fetch a random
// number" button and a cancel button, the request a task that awaits an API client. When the
// client has already answered as the cancel comes in, the buggy state writes the number after
// the cancel reset it: the screen shows "cancelled" and a number at once.

protocol RandomNumberClient: Actor {
  func fetchRandomNumber() async throws -> Int
}

/// A client that answers after one round trip, and throws if cancelled before it answers.
actor RandomNumberClientStub: RandomNumberClient {
  private let number: Int
  init(number: Int) { self.number = number }

  func fetchRandomNumber() async throws -> Int {
    await Task.yield()  // the round trip
    try Task.checkCancellation()
    return number
  }
}

@MainActor protocol NumberScreenState: AnyObject, Sendable {
  init(client: any RandomNumberClient)
  var number: Int? { get }
  var error: (any Error)? { get }
  var isProcessing: Bool { get }
  var fetchTask: Task<Void, Never>? { get }
  func fetchRandomNumberButtonTapped()
  func cancelButtonTapped()
}

/// The bug: the request's task writes whatever it gets, even once cancelled.
@MainActor final class StaleResultViewState: NumberScreenState {
  private let client: any RandomNumberClient
  private(set) var number: Int?
  private(set) var error: (any Error)?
  private(set) var isProcessing = false
  private(set) var fetchTask: Task<Void, Never>?
  init(client: any RandomNumberClient) { self.client = client }

  func fetchRandomNumberButtonTapped() {
    isProcessing = true
    error = nil
    fetchTask = Task {
      do {
        number = try await client.fetchRandomNumber()
      } catch {
        self.error = error
      }
      isProcessing = false
    }
  }

  func cancelButtonTapped() {
    guard isProcessing else { return }
    fetchTask?.cancel()
    fetchTask = nil
    isProcessing = false
    number = nil
    error = CancellationError()
  }
}

/// The fix: once cancelled, the request's task leaves the state to the cancel.
@MainActor final class CancellableViewState: NumberScreenState {
  private let client: any RandomNumberClient
  private(set) var number: Int?
  private(set) var error: (any Error)?
  private(set) var isProcessing = false
  private(set) var fetchTask: Task<Void, Never>?
  init(client: any RandomNumberClient) { self.client = client }

  func fetchRandomNumberButtonTapped() {
    isProcessing = true
    error = nil
    fetchTask = Task {
      do {
        let number = try await client.fetchRandomNumber()
        guard !Task.isCancelled else { return }
        self.number = number
      } catch {
        guard !Task.isCancelled else { return }
        self.error = error
      }
      isProcessing = false
    }
  }

  func cancelButtonTapped() {
    guard isProcessing else { return }
    fetchTask?.cancel()
    fetchTask = nil
    isProcessing = false
    number = nil
    error = CancellationError()
  }
}

/// The user taps "fetch", then "cancel": each tap an event on the main actor, the request in
/// flight between them. Whichever wins, the screen ends up showing one thing: the number or
/// the cancellation, and no spinner.
@Sendable func cancelLeavesAConsistentScreen<State: NumberScreenState>(_: State.Type) async {
  let state = await State(client: RandomNumberClientStub(number: 42))
  await state.fetchRandomNumberButtonTapped()
  let request = await state.fetchTask
  await state.cancelButtonTapped()
  await request?.value
  await MainActor.run {
    #expect(!state.isProcessing)
    #expect(
      (state.number == nil) != (state.error == nil),
      "number \(String(describing: state.number)), error \(String(describing: state.error))")
  }
}

extension ExplorationTests {
  @Suite("Exploring schedules: a view state whose cancel races its request")
  struct ViewStateCancelExplorationTests {
    @Test(.explorationNeedsTheCustomExecutors)
    func theFirstInFirstOutRunPassesButExploringFindsTheStaleResult() async {
      await exploringFindsAFailingSchedule {
        await cancelLeavesAConsistentScreen(StaleResultViewState.self)
      }
    }

    @Test func checkingForCancellationAfterTheAwaitPassesTenThousandSchedules() async {
      await exploreSchedules(.exploring(schedules: passingSchedules)) {
        await cancelLeavesAConsistentScreen(CancellableViewState.self)
      }
    }
  }
}

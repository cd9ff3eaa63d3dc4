// The production code of the article "非同期処理を含んだViewStateのユニットテスト" ("Unit tests
// of a view state with asynchronous work", on a view state over an actor API client),
// unchanged: the client sleeps a second before it answers, and the second view
// state can cancel the request. The article tests it with a stub whose continuation the test
// resumes, or with swift-concurrency-extras' main serial executor; here the real client runs,
// on virtual time.

import Observation

// MARK: - Protocol

protocol APIClientProtocol: Actor {
  func fetchRandomNumber() async throws -> Int
}

// MARK: - Implement

final actor APIClient: APIClientProtocol {

  static let shared: APIClient = .init()

  func fetchRandomNumber() async throws -> Int {
    try await Task.sleep(for: .seconds(1))  // Heavy Task
    return Int.random(in: 1...100)
  }
}

struct MessageError: Error {
  let description: String
}

@MainActor
@Observable
final class FirstViewState {
  private let apiClient: APIClientProtocol
  private(set) var number: Int?
  private(set) var isProcessing = false

  init(apiClient: APIClientProtocol = APIClient.shared) {
    self.apiClient = apiClient
  }

  func fetchRandomNumberButtonTapped() async throws {
    isProcessing = true
    defer {
      isProcessing = false
    }
    number = try await apiClient.fetchRandomNumber()
  }
}

@MainActor
@Observable
final class SecondViewState {
  private let apiClient: APIClientProtocol
  private(set) var number: Int?
  private(set) var fetchRandomNumberTask: Task<(), Error>?
  private(set) var isProcessing = false
  private(set) var error: Error?

  init(apiClient: APIClientProtocol = APIClient.shared) {
    self.apiClient = apiClient
  }

  func fetchRandomNumberButtonTapped() {
    isProcessing = true
    error = nil
    fetchRandomNumberTask = Task {
      defer {
        isProcessing = false
      }
      do {
        number = try await apiClient.fetchRandomNumber()
      } catch {
        if Task.isCancelled {
          number = nil
          self.error = MessageError(description: error.localizedDescription)
        } else {
          fatalError("unimplemented")
        }
      }
    }
  }

  func handleCancelButtonTapped() {
    fetchRandomNumberTask?.cancel()
    fetchRandomNumberTask = nil
  }
}

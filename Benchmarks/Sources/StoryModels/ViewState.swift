/// What the view shows while it loads a profile.
public enum ProfileViewState: Equatable, Sendable {
  case idle
  case loading
  case loaded(String)
}

/// The API of the view-state story: an actor, as a network client is.
public actor ProfileAPI {
  public init() {}
  public func profile() -> String { "Blob" }
}

/// The view state with loading and cancel (the seed article's shape): loading takes a second
/// of the injected clock, and cancelling goes back to idle without a result.
@MainActor public final class ProfileViewModel {
  public private(set) var state = ProfileViewState.idle
  private var loading: Task<Void, Never>?
  private let sleep: @Sendable (Duration) async throws -> Void
  private let api: ProfileAPI

  public init(sleep: @escaping @Sendable (Duration) async throws -> Void, api: ProfileAPI) {
    self.sleep = sleep
    self.api = api
  }

  public func load() {
    state = .loading
    loading = Task {
      do { try await sleep(.seconds(1)) } catch { return }
      state = .loaded(await api.profile())
    }
  }

  public func cancel() {
    loading?.cancel()
    state = .idle
  }
}

/// The view state's test: load, cancel half way (no result may arrive), load again and wait.
@MainActor public func viewStateTest(
  _ model: ProfileViewModel, advance: (Duration) async -> Void
) async -> Bool {
  model.load()
  var passed = model.state == .loading
  await advance(.milliseconds(500))
  model.cancel()
  await advance(.seconds(1))
  passed = passed && model.state == .idle
  model.load()
  await advance(.seconds(1))
  passed = passed && model.state == .loaded("Blob")
  model.cancel()
  return passed
}

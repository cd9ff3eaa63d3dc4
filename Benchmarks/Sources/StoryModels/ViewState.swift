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

/// The view state's model on an actor of its own instead of the main actor, for tests whose
/// body is not main-actor code: the same state, the same loading task (isolated to the actor,
/// as the main-actor model's is to the main actor), the same API hop.
public actor ProfileViewActor {
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

/// `viewStateTest` for the actor's model, from a body that is not main-actor code: the same
/// steps and checks, each an `await` on the actor.
public func viewStateActorTest(
  _ model: ProfileViewActor, advance: (Duration) async -> Void
) async -> Bool {
  await model.load()
  let loading = await model.state
  await advance(.milliseconds(500))
  await model.cancel()
  await advance(.seconds(1))
  let cancelled = await model.state
  await model.load()
  await advance(.seconds(1))
  let loaded = await model.state
  await model.cancel()
  return loading == .loading && cancelled == .idle && loaded == .loaded("Blob")
}

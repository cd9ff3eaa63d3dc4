// The production code of the story benchmarks: written once, with no scheduler, clock or
// package in it, so that each way of testing it runs exactly the same code. The model takes
// the one thing that differs, how to wait, as a function, the way a model takes a dependency.

/// The search API the model calls: an actor, so each search hops off the main actor and back,
/// as a network client's call does.
public actor SearchAPI {
  public init() {}
  public func search(_ query: String) -> [String] { ["\(query) result"] }
}

/// The debounced search of the test suite's stories: each keystroke cancels the search in
/// flight and starts a new one after 300 ms of quiet.
@MainActor public final class DebouncedSearchModel {
  public private(set) var results: [String] = []
  public private(set) var searches = 0
  private var pending: Task<Void, Never>?
  private let sleep: @Sendable (Duration) async throws -> Void
  private let api: SearchAPI

  public init(sleep: @escaping @Sendable (Duration) async throws -> Void, api: SearchAPI) {
    self.sleep = sleep
    self.api = api
  }

  public func queryChanged(_ query: String) {
    pending?.cancel()
    pending = Task {
      do { try await sleep(.milliseconds(300)) } catch { return }
      searches += 1
      results = await api.search(query)
    }
  }

  public func stop() { pending?.cancel() }
}

/// The story's test, the same for every way of running it: `advance` moves the way's clock
/// and returns when the way thinks the model has caught up. True when the outcome is right:
/// one search, for the last query.
@MainActor public func debouncedSearchTest(
  _ model: DebouncedSearchModel, advance: (Duration) async -> Void
) async -> Bool {
  model.queryChanged("s")
  await advance(.milliseconds(100))
  model.queryChanged("sw")
  await advance(.milliseconds(100))
  model.queryChanged("swift")
  await advance(.milliseconds(300))
  let passed = model.results == ["swift result"] && model.searches == 1
  model.stop()
  return passed
}

/// The debounced search's model on an actor of its own instead of the main actor, for tests
/// whose body is not main-actor code: the same debounce task (isolated to the actor), the same
/// API hop.
public actor DebouncedSearchActor {
  public private(set) var results: [String] = []
  public private(set) var searches = 0
  private var pending: Task<Void, Never>?
  private let sleep: @Sendable (Duration) async throws -> Void
  private let api: SearchAPI

  public init(sleep: @escaping @Sendable (Duration) async throws -> Void, api: SearchAPI) {
    self.sleep = sleep
    self.api = api
  }

  public func queryChanged(_ query: String) {
    pending?.cancel()
    pending = Task {
      do { try await sleep(.milliseconds(300)) } catch { return }
      searches += 1
      results = await api.search(query)
    }
  }

  public func stop() { pending?.cancel() }
}

/// `debouncedSearchTest` for the actor's model, from a body that is not main-actor code: the
/// same keystrokes and the same check, each an `await` on the actor.
public func debouncedSearchActorTest(
  _ model: DebouncedSearchActor, advance: (Duration) async -> Void
) async -> Bool {
  await model.queryChanged("s")
  await advance(.milliseconds(100))
  await model.queryChanged("sw")
  await advance(.milliseconds(100))
  await model.queryChanged("swift")
  await advance(.milliseconds(300))
  let (results, searches) = (await model.results, await model.searches)
  await model.stop()
  return results == ["swift result"] && searches == 1
}

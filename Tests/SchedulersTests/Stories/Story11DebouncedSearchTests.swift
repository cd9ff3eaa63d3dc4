import Dispatch
import Schedulers
import Synchronization
import Testing

// Story 11: a search field debounced by 300 ms: typing "a", "ab", "abc" 100 ms apart triggers
// one search, for "abc", 300 ms after the last keystroke; a new keystroke while a search runs
// cancels the old one.

/// A search service whose requests take 200 ms of the scheduler's time, and which records
/// what it was asked and what was cancelled.
final class SearchClient: Sendable {
  let scheduler: AnySchedulerOf<DispatchQueue>
  private let log = Mutex<(started: [String], cancelled: [String])>(([], []))

  init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }

  var started: [String] { log.withLock { $0.started } }
  var cancelled: [String] { log.withLock { $0.cancelled } }

  func search(_ query: String) async throws -> [String] {
    log.withLock { $0.started.append(query) }
    do {
      try await scheduler.sleep(for: .milliseconds(200))
    } catch {
      log.withLock { $0.cancelled.append(query) }
      throw error
    }
    return ["\(query) result"]
  }
}

@MainActor
final class SearchModel {
  private(set) var query = ""
  private(set) var results: [String] = []
  private let scheduler: AnySchedulerOf<DispatchQueue>
  private let client: SearchClient
  private var searchTask: Task<Void, Never>?

  init(scheduler: AnySchedulerOf<DispatchQueue>, client: SearchClient) {
    self.scheduler = scheduler
    self.client = client
  }

  func queryChanged(_ query: String) {
    self.query = query
    searchTask?.cancel()
    searchTask = Task {
      do {
        try await scheduler.sleep(for: .milliseconds(300))
        results = try await client.search(query)
      } catch {}
    }
  }
}

@Suite("Story 11: debounced search")
struct Story11DebouncedSearchTests {
  @Test func typingQuicklyTriggersOneSearchForTheLastQuery() async throws {
    let scheduler = DispatchQueue.test
    try await deterministically(scheduler) { @MainActor in
      let client = SearchClient(scheduler: scheduler.eraseToAnyScheduler())
      let model = SearchModel(scheduler: scheduler.eraseToAnyScheduler(), client: client)

      model.queryChanged("a")
      await scheduler.advance(by: .milliseconds(100))
      model.queryChanged("ab")
      await scheduler.advance(by: .milliseconds(100))
      model.queryChanged("abc")
      await scheduler.advance(by: .milliseconds(299))
      #expect(client.started.isEmpty)

      await scheduler.advance(by: .milliseconds(1))
      #expect(client.started == ["abc"])
      #expect(model.results.isEmpty)

      await scheduler.advance(by: .milliseconds(200))
      #expect(model.results == ["abc result"])
      #expect(client.started == ["abc"])
    }
  }

  @Test func aKeystrokeWhileASearchRunsCancelsIt() async throws {
    let scheduler = DispatchQueue.test
    try await deterministically(scheduler) { @MainActor in
      let client = SearchClient(scheduler: scheduler.eraseToAnyScheduler())
      let model = SearchModel(scheduler: scheduler.eraseToAnyScheduler(), client: client)

      model.queryChanged("abc")
      await scheduler.advance(by: .milliseconds(400))  // the search for "abc" is half done
      #expect(client.started == ["abc"])

      model.queryChanged("abcd")
      await scheduler.advance()
      #expect(client.cancelled == ["abc"])

      await scheduler.advance(by: .milliseconds(500))
      #expect(client.started == ["abc", "abcd"])
      #expect(model.results == ["abcd result"])
    }
  }
}

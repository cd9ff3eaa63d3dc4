import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

// A search field debounced by 300 ms: typing "a", "ab", "abc" 100 ms apart triggers
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

extension AsyncStories {
  @Suite("Debounced search")
  struct DebouncedSearchTests {
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

    @Test func debouncedSearchWithTheDebounceOperator() async throws {
      let scheduler = DispatchQueue.test
      try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
        let client = SearchClient(scheduler: scheduler.eraseToAnyScheduler())
        let model = StreamSearchModel(scheduler: scheduler.eraseToAnyScheduler(), client: client)
        let running = Task { await model.run() }
        await scheduler.advance()

        model.queryChanged("a")
        await scheduler.advance(by: .milliseconds(100))
        model.queryChanged("ab")
        await scheduler.advance(by: .milliseconds(100))
        model.queryChanged("abc")
        await scheduler.advance(by: .milliseconds(299))
        #expect(client.started.isEmpty)

        await scheduler.advance(by: .milliseconds(1))
        #expect(client.started == ["abc"])
        await scheduler.advance(by: .milliseconds(100))  // the search is half done

        model.queryChanged("abcd")  // cancels the running search at once
        await scheduler.advance()
        #expect(client.cancelled == ["abc"])

        await scheduler.advance(by: .milliseconds(500))
        #expect(client.started == ["abc", "abcd"])
        #expect(model.results == ["abcd result"])
        running.cancel()
        await running.value
        #expect(scheduler.pendingActionCount == 0)
      }
    }

    @MainActor @Test func debouncedSearchWithADebouncer() {
      let scheduler = DispatchQueue.test
      let model = DebouncedSearchModel(scheduler: scheduler.eraseToAnyScheduler())
      model.queryChanged("a")
      scheduler.advance(by: .milliseconds(100))
      model.queryChanged("ab")
      scheduler.advance(by: .milliseconds(100))
      model.queryChanged("abc")
      scheduler.advance(by: .milliseconds(299))
      #expect(model.searches.isEmpty)
      scheduler.advance(by: .milliseconds(1))
      #expect(model.searches == ["abc"])
    }
  }
}

/// A search field whose queries flow through `debounce`; a new keystroke cancels the search
/// in flight at once.
@MainActor
final class StreamSearchModel {
  private(set) var results: [String] = []
  private let queries: AsyncStream<String>
  private let queryInput: AsyncStream<String>.Continuation
  private var searchTask: Task<Void, Never>?
  let scheduler: AnySchedulerOf<DispatchQueue>
  let client: SearchClient

  init(scheduler: AnySchedulerOf<DispatchQueue>, client: SearchClient) {
    self.scheduler = scheduler
    self.client = client
    (queries, queryInput) = AsyncStream.makeStream()
  }

  func queryChanged(_ query: String) {
    searchTask?.cancel()
    queryInput.yield(query)
  }

  func run() async {
    for await query in queries.debounce(for: .milliseconds(300), scheduler: scheduler) {
      searchTask = Task {
        do { results = try await client.search(query) } catch {}
      }
    }
    searchTask?.cancel()
  }
}

/// The same search field without async code: a `Debouncer` in the view model.
@MainActor
final class DebouncedSearchModel {
  private(set) var searches: [String] = []
  private let debouncer: Debouncer<AnySchedulerOf<DispatchQueue>>

  init(scheduler: AnySchedulerOf<DispatchQueue>) {
    debouncer = Debouncer(for: .milliseconds(300), scheduler: scheduler)
  }

  func queryChanged(_ query: String) {
    debouncer.call { @MainActor [weak self] in self?.searches.append(query) }
  }
}

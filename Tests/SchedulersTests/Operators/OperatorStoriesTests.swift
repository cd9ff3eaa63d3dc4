import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

// The operator stories of SCENARIOS.md (3 race, 6 timeout, 11 debounced search) as the view
// models users write with this package's operators, each tested on virtual time.

// MARK: Story 3: race two operations

/// Loads an episode from whichever of the cache (1 s) and the network (2 s) answers first.
@MainActor
final class EpisodeModel {
  private(set) var loaded: [Int] = []
  private(set) var cancelledSources: [String] = []
  let scheduler: AnySchedulerOf<DispatchQueue>

  init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }

  func load() async {
    let cancelled = Recorder<String>()
    let source: @Sendable (String, Int) async throws -> Int = { [scheduler] name, seconds in
      do {
        try await scheduler.sleep(for: .seconds(seconds))
      } catch {
        cancelled.append(name)
        throw error
      }
      return seconds
    }
    let winner = try? await race(
      { try await source("cache", 1) }, { try await source("network", 2) })
    if let winner { loaded.append(winner) }
    cancelledSources = cancelled.values
  }
}

@Suite("Operator stories")
struct OperatorStoriesTests {
  @Test func story3RaceDeliversOnlyTheFirstAndCancelsTheLoser() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let model = EpisodeModel(scheduler: scheduler.eraseToAnyScheduler())
      let loading = Task { await model.load() }

      await scheduler.advance(by: .seconds(1))
      #expect(model.loaded == [1])
      #expect(model.cancelledSources == ["network"])

      await scheduler.advance(by: .seconds(1))
      #expect(model.loaded == [1])
      #expect(scheduler.pendingActionCount == 0)
      await loading.value
    }
  }

  // MARK: Story 6: timeouts that fail fast

  @Test func story6ALiveFeedThatFallsSilentTimesOut() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let (scores, feed) = AsyncStream<Int>.makeStream()
      let model = LiveScoreModel(scheduler: scheduler.eraseToAnyScheduler())
      let watching = Task { await model.watch(scores) }

      await scheduler.advance()
      feed.yield(1)
      await scheduler.advance(by: .seconds(4))
      feed.yield(2)
      await scheduler.advance(by: .seconds(4))
      #expect(model.score == 2)
      #expect(model.status == "live")

      await scheduler.advance(by: .seconds(1))
      #expect(model.status == "The operation timed out.")
      await watching.value
    }
  }

  @Test func story6AFeedThatEndsInTimeDoesNotTimeOut() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let (scores, feed) = AsyncStream<Int>.makeStream()
      let model = LiveScoreModel(scheduler: scheduler.eraseToAnyScheduler())
      let watching = Task { await model.watch(scores) }

      await scheduler.advance(by: .seconds(3))
      feed.yield(7)
      feed.finish()
      await scheduler.advance()
      #expect(model.score == 7)
      #expect(model.status == "final")
      #expect(scheduler.pendingActionCount == 0)
      await watching.value
    }
  }

  // MARK: Story 11: debounced search

  @Test func story11DebouncedSearchWithTheDebounceOperator() async throws {
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

  @MainActor @Test func story11DebouncedSearchWithADebouncer() {
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

/// Shows a live score, and the timeout's message when the feed is silent for 5 s.
@MainActor
final class LiveScoreModel {
  private(set) var score = 0
  private(set) var status = "connecting"
  let scheduler: AnySchedulerOf<DispatchQueue>

  init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }

  func watch(_ scores: AsyncStream<Int>) async {
    do {
      for try await score in scores.timeout(.seconds(5), scheduler: scheduler) {
        self.score = score
        status = "live"
      }
      status = "final"
    } catch {
      status = "\(error)"
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

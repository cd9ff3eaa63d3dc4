import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

// Two operations complete after 1 s and 2 s of scheduler time; `race` yields only the
// first. Advancing 1 s gives [1]; advancing another second still gives [1]; the loser is
// cancelled.

/// A callback-style operation that can be cancelled, like a Combine `Future`.
struct Operation<Value: Sendable>: Sendable {
  var start: @Sendable (_ completion: @escaping @Sendable (Value) -> Void) -> any Cancellable

  /// An operation that completes with `value` after `delay` of `scheduler` time.
  static func after<S: Scheduler & Sendable>(
    _ delay: S.SchedulerTimeType.Stride, on scheduler: S, value: Value,
    cancelled: Counter = Counter()
  ) -> Operation where S.SchedulerTimeType.Stride: Sendable {
    Operation { completion in
      let token = CancelToken(onCancel: { cancelled.increment() })
      scheduler.schedule(after: scheduler.now.advanced(by: delay)) {
        if !token.isCancelled { completion(value) }
      }
      return token
    }
  }
}

/// The `Atomic<Bool>` token the style guide recommends over capturing a work item.
final class CancelToken: Cancellable, Sendable {
  private let flag = Atomic(false)
  private let onCancel: @Sendable () -> Void

  init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = onCancel
  }

  var isCancelled: Bool { flag.load(ordering: .acquiring) }

  func cancel() {
    if !flag.exchange(true, ordering: .acquiringAndReleasing) { onCancel() }
  }
}

/// Starts every operation; delivers the first value to finish and cancels the others.
func race<Value: Sendable>(
  _ operations: Operation<Value>..., output: @escaping @Sendable (Value) -> Void
) -> AnyCancellable {
  let state = Mutex<(finished: Bool, cancellables: [SendableCancellable])>((false, []))
  for operation in operations {
    let cancellable = operation.start { value in
      let losers = state.withLock { state -> [SendableCancellable]? in
        guard !state.finished else { return nil }
        state.finished = true
        return state.cancellables
      }
      guard let losers else { return }
      output(value)
      losers.forEach { $0.cancel() }
    }
    state.withLock { $0.cancellables.append(SendableCancellable(cancellable)) }
  }
  return AnyCancellable { state.withLock { $0.cancellables }.forEach { $0.cancel() } }
}

extension AsyncStories {
  @Suite("Racing two operations: the first wins, the loser is cancelled")
  struct RacingTwoOperationsTests {
    @Test func onlyTheFirstToFinishIsDeliveredAndTheLoserIsCancelled() {
      let scheduler = DispatchQueue.test
      let secondCancelled = Counter()
      let output = Recorder<Int>()
      let race = race(
        .after(.seconds(1), on: scheduler, value: 1),
        .after(.seconds(2), on: scheduler, value: 2, cancelled: secondCancelled),
        output: { output.append($0) })

      scheduler.advance(by: .seconds(1))
      #expect(output.values == [1])
      #expect(secondCancelled.value == 1)

      scheduler.advance(by: .seconds(1))
      #expect(output.values == [1])
      _ = race
    }

    @Test func raceDeliversOnlyTheFirstAndCancelsTheLoser() async throws {
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
  }
}

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

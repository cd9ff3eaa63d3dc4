import Dispatch
import Schedulers
import SchedulersTesting
import Testing

// An async operation wrapped in a timeout throws a timeout error ("The operation
// timed out.") when it does not finish within the scheduler's time, returns its value when it
// does, and can be cancelled. With a test scheduler the timeout test takes no real time.

/// An operation that takes `duration` of the scheduler's time.
func slowAnswer(
  after duration: DispatchQueue.SchedulerTimeType.Stride,
  on scheduler: AnySchedulerOf<DispatchQueue>
) async throws -> Int {
  try await scheduler.sleep(for: duration)
  return 42
}

extension AsyncStories {
  @Suite("Timeouts that fail fast")
  struct TimeoutsThatFailFastTests {
    @Test func anOperationThatIsTooSlowTimesOut() async throws {
      let test = DispatchQueue.test
      try await deterministically(test) {
        let scheduler = test.eraseToAnyScheduler()
        let call = Task {
          try await withTimeout(.seconds(5), scheduler: scheduler) {
            try await slowAnswer(after: .seconds(10), on: scheduler)
          }
        }
        await test.advance(by: .seconds(5))
        let result = await call.result
        #expect(throws: TimeoutError.self) { try result.get() }
        #expect((try? result.get()) == nil)
        #expect("\(TimeoutError())" == "The operation timed out.")
        #expect(test.pendingActionCount == 0)  // the slow operation's sleep was cancelled
      }
    }

    @Test func anOperationThatFinishesInTimeReturnsItsValue() async throws {
      let test = DispatchQueue.test
      try await deterministically(test) {
        let scheduler = test.eraseToAnyScheduler()
        let call = Task {
          try await withTimeout(.seconds(5), scheduler: scheduler) {
            try await slowAnswer(after: .seconds(1), on: scheduler)
          }
        }
        await test.advance(by: .seconds(1))
        let value = try await call.value
        #expect(value == 42)
        #expect(test.pendingActionCount == 0)  // the timeout's sleep was cancelled
      }
    }

    @Test func cancellingTheCallerCancelsEverything() async throws {
      let test = DispatchQueue.test
      try await deterministically(test) {
        let scheduler = test.eraseToAnyScheduler()
        let call = Task {
          try await withTimeout(.seconds(5), scheduler: scheduler) {
            try await slowAnswer(after: .seconds(10), on: scheduler)
          }
        }
        await test.advance(by: .seconds(1))
        #expect(test.pendingActionCount == 2)
        call.cancel()
        await test.advance()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(test.pendingActionCount == 0)
      }
    }

    @Test func aLiveFeedThatFallsSilentTimesOut() async throws {
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

    @Test func aFeedThatEndsInTimeDoesNotTimeOut() async throws {
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

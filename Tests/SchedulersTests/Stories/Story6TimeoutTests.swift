import Dispatch
import Schedulers
import Testing

// Story 6: an async operation wrapped in a timeout throws a timeout error ("The operation
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

@Suite("Story 6: timeouts that fail fast")
struct Story6TimeoutTests {
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
}

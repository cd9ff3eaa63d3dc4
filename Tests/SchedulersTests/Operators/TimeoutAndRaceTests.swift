import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

/// An operation on a test scheduler that records whether it was cancelled.
final class SlowOperation: Sendable {
  let scheduler: TestSchedulerOf<DispatchQueue>
  private let cancelledFlag = Atomic(false)

  init(scheduler: TestSchedulerOf<DispatchQueue>) { self.scheduler = scheduler }

  var wasCancelled: Bool { cancelledFlag.load(ordering: .acquiring) }

  func value<R: Sendable>(_ value: R, after duration: DispatchQueue.SchedulerTimeType.Stride)
    async throws -> R
  {
    do {
      try await scheduler.sleep(for: duration)
    } catch {
      cancelledFlag.store(true, ordering: .releasing)
      throw error
    }
    return value
  }
}

struct OperationFailed: Error, Equatable {}

@Suite("withTimeout and race")
struct TimeoutAndRaceTests {
  @Test func timingOutCancelsTheOperationAndSaysSo() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      let slow = SlowOperation(scheduler: scheduler)
      let call = Task {
        try await withTimeout(.seconds(1), scheduler: scheduler) {
          try await slow.value(1, after: .seconds(2))
        }
      }
      await scheduler.advance(by: .milliseconds(999))
      #expect(!slow.wasCancelled)
      await scheduler.advance(by: .milliseconds(1))
      let result = await call.result
      #expect(throws: TimeoutError()) { try result.get() }
      #expect(slow.wasCancelled)
      #expect(TimeoutError().description == "The operation timed out.")
      #expect(scheduler.pendingActionCount == 0)
    }
  }

  @Test func theOperationsOwnErrorPassesThrough() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      let call = Task {
        try await withTimeout(.seconds(1), scheduler: scheduler) { () async throws -> Int in
          throw OperationFailed()
        }
      }
      await scheduler.advance()
      await #expect(throws: OperationFailed()) { try await call.value }
      #expect(scheduler.pendingActionCount == 0)  // the timer was cancelled
    }
  }

  @Test func raceReturnsTheFirstValueAndCancelsTheOthers() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      let fast = SlowOperation(scheduler: scheduler)
      let slow = SlowOperation(scheduler: scheduler)
      let winner = Task {
        try await race(
          { try await slow.value("slow", after: .seconds(2)) },
          { try await fast.value("fast", after: .seconds(1)) })
      }
      await scheduler.advance(by: .seconds(1))
      let value = try await winner.value
      #expect(value == "fast")
      #expect(slow.wasCancelled)
      #expect(!fast.wasCancelled)
      #expect(scheduler.pendingActionCount == 0)
    }
  }

  @Test func raceReturnsTheFirstErrorToo() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      let slow = SlowOperation(scheduler: scheduler)
      let winner = Task {
        try await race(
          { try await slow.value(1, after: .seconds(2)) },
          {
            try await scheduler.sleep(for: .seconds(1))
            throw OperationFailed()
          })
      }
      await scheduler.advance(by: .seconds(1))
      await #expect(throws: OperationFailed()) { try await winner.value }
      #expect(slow.wasCancelled)
    }
  }

  @Test(.exitTestOffThePool) func raceWithoutAnOperationIsRefused() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let mirrors: [String] = []
      _ = try await race(mirrors.map { mirror in { @Sendable in mirror } })
    }
    expectStandardError(of: result, toContain: "race needs at least one operation")
  }
}

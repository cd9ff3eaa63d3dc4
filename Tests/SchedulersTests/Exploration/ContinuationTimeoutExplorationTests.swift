import Dispatch
import Schedulers
import SchedulersTesting
import Testing

// A completion handler bridged to async/await with a timeout: the answer cancels the timeout
// and resumes the continuation. The buggy bridge stores its continuation from a task of its
// own (the continuation's closure cannot await an actor): an answer that comes before the
// continuation is stored is dropped, and it has already cancelled the timeout, so the
// continuation is never resumed and the call never returns.

/// A callback API, as written before async/await: answers from a task of its own.
final class LegacyNumberService: Sendable {
  private let server = NumberServer()
  func fetchNumber(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
    Task { completion(.success(await server.answer())) }
  }
}

actor NumberServer {
  func answer() async -> Int {
    for _ in 0..<2 { await Task.yield() }  // the round trips
    return 42
  }
}

protocol PendingCall: Actor {
  init()
  func wait(with continuation: CheckedContinuation<Int, any Error>)
  func finish(_ result: Result<Int, any Error>)
}

/// The bug: an outcome that comes before the continuation is dropped.
actor DroppingPendingCall: PendingCall {
  private var continuation: CheckedContinuation<Int, any Error>?
  func wait(with continuation: CheckedContinuation<Int, any Error>) {
    self.continuation = continuation
  }
  func finish(_ result: Result<Int, any Error>) {
    continuation?.resume(with: result)
    continuation = nil
  }
}

/// The fix: the first outcome is kept until the continuation comes, and resumes it exactly
/// once; later outcomes are ignored.
actor KeepingPendingCall: PendingCall {
  private var continuation: CheckedContinuation<Int, any Error>?
  private var outcome: Result<Int, any Error>?
  func wait(with continuation: CheckedContinuation<Int, any Error>) {
    if let outcome {
      continuation.resume(with: outcome)
    } else {
      self.continuation = continuation
    }
  }
  func finish(_ result: Result<Int, any Error>) {
    guard outcome == nil else { return }
    outcome = result
    continuation?.resume(with: result)
    continuation = nil
  }
}

/// The bridge: the service's answer, or `TimeoutError` after `timeout` of `scheduler`'s time.
func fetchNumber<Call: PendingCall>(
  _: Call.Type, from service: LegacyNumberService, timeout: DispatchQueue.SchedulerTimeType.Stride,
  scheduler: TestSchedulerOf<DispatchQueue>
) async throws -> Int {
  let call = Call()
  return try await withCheckedThrowingContinuation { continuation in
    Task { await call.wait(with: continuation) }
    let timer = Task {
      try await scheduler.sleep(for: timeout)
      await call.finish(.failure(TimeoutError()))
    }
    service.fetchNumber { result in
      timer.cancel()
      Task { await call.finish(result) }
    }
  }
}

/// Once the timeout's interval has passed, the call has returned, exactly once: with the
/// answer, or with the timeout's error when the clock moved first.
@Sendable func theCallReturnsOnce<Call: PendingCall>(_: Call.Type) async {
  let scheduler = DispatchQueue.test
  let outcomes = Recorder<Result<Int, TimeoutError>>()
  let call = Task(name: "call") {
    do {
      outcomes.append(
        .success(
          try await fetchNumber(
            Call.self, from: LegacyNumberService(), timeout: .seconds(5), scheduler: scheduler)))
    } catch {
      outcomes.append(.failure(TimeoutError()))
    }
  }
  await scheduler.advance(by: .seconds(5))
  #expect(outcomes.count == 1, "the call has returned once the timeout has passed")
  #expect(outcomes.values.allSatisfy { $0 == .success(42) || $0 == .failure(TimeoutError()) })
  call.cancel()
}

extension ExplorationTests {
  @Suite("Exploring schedules: a continuation bridge whose answer races its timeout")
  struct ContinuationTimeoutExplorationTests {
    @Test(.explorationNeedsTheCustomExecutors)
    func theFirstInFirstOutRunPassesButExploringFindsTheNeverResumedCall() async {
      await exploringFindsAFailingSchedule {
        await theCallReturnsOnce(DroppingPendingCall.self)
      }
    }

    @Test(.explorationNeedsTheCustomExecutors)
    func keepingAnEarlyAnswerPassesTenThousandSchedules() async {
      await exploreSchedules(.exploring(schedules: passingSchedules)) {
        await theCallReturnsOnce(KeepingPendingCall.self)
      }
    }
  }
}

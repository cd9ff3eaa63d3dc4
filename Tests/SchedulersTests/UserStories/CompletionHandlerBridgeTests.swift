import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

// A callback API is wrapped with a checked continuation that must resume exactly
// once, on success, on failure and on cancellation. Scheduled callbacks and async sleeps must
// never resume a continuation twice or leak one (a leaked continuation hangs a test forever).

struct LegacyError: Error, Equatable {}

/// A completion-handler API whose callback arrives after a second of scheduler time, and which
/// can be cancelled.
final class LegacyWeatherService: Sendable {
  let scheduler: AnySchedulerOf<DispatchQueue>
  let outcome: Result<Int, LegacyError>

  init(scheduler: AnySchedulerOf<DispatchQueue>, outcome: Result<Int, LegacyError>) {
    self.scheduler = scheduler
    self.outcome = outcome
  }

  func fetchTemperature(
    completion: @escaping @Sendable (Result<Int, LegacyError>) -> Void
  ) -> any Cancellable {
    scheduler.scheduleCancellable(
      after: scheduler.now.advanced(by: .seconds(1)), tolerance: .zero, options: nil
    ) { [outcome] in completion(outcome) }
  }
}

/// The bridge as the article writes it, plus cancellation: the continuation resumes once,
/// whichever of the callback and the cancellation comes first.
extension LegacyWeatherService {
  func temperature() async throws -> Int {
    let state = Mutex<
      (
        continuation: CheckedContinuation<Int, any Error>?, request: SendableCancellable?,
        cancelled: Bool
      )
    >(
      (nil, nil, false))
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let alreadyCancelled = state.withLock { state -> Bool in
          state.continuation = continuation
          return state.cancelled
        }
        if alreadyCancelled {
          state.withLock { $0.continuation = nil }
          continuation.resume(throwing: CancellationError())
          return
        }
        let request = fetchTemperature { result in
          let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
          }
          continuation?.resume(with: result.mapError { $0 as any Error })
        }
        state.withLock { $0.request = SendableCancellable(request) }
      }
    } onCancel: {
      let (continuation, request) = state.withLock { state in
        state.cancelled = true
        defer { state.continuation = nil }
        return (state.continuation, state.request)
      }
      request?.cancel()
      continuation?.resume(throwing: CancellationError())
    }
  }
}

extension AsyncStories {
  @Suite("A completion handler bridged to async/await")
  struct CompletionHandlerBridgeTests {
    @Test func resumesOnceWithTheValue() async throws {
      let test = DispatchQueue.test
      try await deterministically(test) {
        let service = LegacyWeatherService(
          scheduler: test.eraseToAnyScheduler(), outcome: .success(21))
        let call = Task { try await service.temperature() }
        await test.advance(by: .seconds(1))
        let value = try await call.value
        #expect(value == 21)
      }
    }

    @Test func resumesOnceWithTheError() async throws {
      let test = DispatchQueue.test
      try await deterministically(test) {
        let service = LegacyWeatherService(
          scheduler: test.eraseToAnyScheduler(), outcome: .failure(LegacyError()))
        let call = Task { try await service.temperature() }
        await test.advance(by: .seconds(1))
        await #expect(throws: LegacyError.self) { try await call.value }
      }
    }

    @Test func resumesOnceOnCancellationAndTheLateCallbackDoesNothing() async throws {
      let test = DispatchQueue.test
      try await deterministically(test) {
        let service = LegacyWeatherService(
          scheduler: test.eraseToAnyScheduler(), outcome: .success(21))
        let call = Task { try await service.temperature() }
        await test.advance(by: .milliseconds(500))
        call.cancel()
        await test.advance(by: .seconds(1))
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(test.pendingActionCount == 0)
      }
    }

    @Test func aLeakedContinuationIsReportedInsteadOfHanging() async throws {
      try await withKnownIssue {
        try await withDeterministicExecution {
          // A continuation nobody resumes, and that ignores cancellation: without the run's
          // deadlock detection this test would hang forever.
          await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
        }
      } matching: { issue in
        issue.description.contains("deadlocked")
      }
    }

    /// The report of a body that does not unwind keeps what the run saw first: here the sleep
    /// that was pending when it cancelled the body, which the cancellation then took off the
    /// scheduler.
    @Test func aLeakedContinuationKeepsTheFirstDeadlockReport() async throws {
      let scheduler = DispatchQueue.test
      let thrown = Mutex<String?>(nil)
      try await withKnownIssue {
        do {
          try await withDeterministicExecution(scheduler: scheduler) {
            async let nap: Void = scheduler.sleep(for: .seconds(5))
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            try await nap
          }
        } catch let error as DeterministicExecutionError {
          thrown.withLock { $0 = error.description }
        }
      } matching: { issue in
        issue.description.contains("did not finish when cancelled")
      }
      let report = try #require(thrown.withLock { $0 })
      #expect(report.contains("did not finish when cancelled"))
      #expect(
        report.contains("What the run found before it cancelled the body: "), "\(report)")
      #expect(report.contains("Pending: 1 on the test scheduler"), "\(report)")
      #expect(scheduler.pendingActionCount == 0)
    }
  }
}

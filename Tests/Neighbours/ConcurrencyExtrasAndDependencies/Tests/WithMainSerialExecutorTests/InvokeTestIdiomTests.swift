import ConcurrencyExtras
import SchedulersTesting
import XCTest

/// The idiom swift-concurrency-extras and swift-clocks suggest for a whole XCTest class: every
/// test under `withMainSerialExecutor`, set in `invokeTest`. An async test method then runs in a
/// nonisolated task that the serial executor sends to the main queue, and a run it starts is
/// driven there.
final class InvokeTestIdiomTests: XCTestCase {
  override func invokeTest() {
    withMainSerialExecutor { super.invokeTest() }
  }

  /// The run's main-actor jobs run in place on the main queue. Before, the run, driven in place
  /// by its nonisolated caller, sent them to `DispatchQueue.main.sync` from the main queue: a
  /// crash in Dispatch. (Found by the field trial, in swift-concurrency-extras 1.4.3's own
  /// `MainSerialExecutorInvocationTests`.)
  func testARunStartedFromTheMainQueueByANonisolatedTask() async throws {
    let ranOnTheMainActor = LockIsolated(0)
    try await withDeterministicExecution {
      await MainActor.run { ranOnTheMainActor.withValue { $0 += 1 } }
      await Task { await MainActor.run { ranOnTheMainActor.withValue { $0 += 1 } } }.value
    }
    XCTAssertEqual(ranOnTheMainActor.value, 2)
  }
}

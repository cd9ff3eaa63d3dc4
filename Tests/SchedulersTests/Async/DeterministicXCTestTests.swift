#if canImport(XCTest)
  import Dispatch
  import Schedulers
  import SchedulersTesting
  import XCTest

  /// Deterministic execution inside XCTest, whose main thread services the main queue from a
  /// run loop on Linux: main-actor jobs of the run must still get through.
  final class DeterministicXCTestTests: XCTestCase {
    @MainActor
    func testTheCountdownUnderXCTest() async throws {
      let scheduler = DispatchQueue.test
      try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
        let model = ChatModel(scheduler: scheduler.eraseToAnyScheduler())
        model.sendButtonTapped("Hello")
        await scheduler.advance()
        XCTAssertEqual(model.countdown, 3)
        await scheduler.advance(by: .seconds(3))
        XCTAssertEqual(model.sentMessages, ["Hello"])
      }
    }

    func testTheCountdownFromANonisolatedXCTest() async throws {
      let scheduler = DispatchQueue.test
      try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
        let model = ChatModel(scheduler: scheduler.eraseToAnyScheduler())
        model.sendButtonTapped("Hi")
        await scheduler.advance(by: .seconds(3))
        XCTAssertEqual(model.sentMessages, ["Hi"])
      }
    }
  }
#endif

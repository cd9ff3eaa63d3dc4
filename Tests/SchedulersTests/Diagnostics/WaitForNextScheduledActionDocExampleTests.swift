import Dispatch
import Schedulers
import Testing

/// The model of `waitForNextScheduledAction`'s doc example, word for word, so that the example
/// is shown to work as written.
@MainActor final class DocExampleRefreshModel {
  private(set) var refreshes = 0
  private let scheduler: AnySchedulerOf<DispatchQueue>
  init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }
  func refreshTapped() {
    Task {
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
        @MainActor [weak self] in self?.refreshes += 1
      }
    }
  }
}

@Suite("waitForNextScheduledAction's doc example")
struct WaitForNextScheduledActionDocExampleTests {
  /// The doc example as a `@MainActor` test, exactly as the doc comment shows it (the default
  /// timeout of 60 s). It timed out every time, as it also did after other tests in one
  /// process: `waitForQueue` hopped off the main actor before taking its count.
  @MainActor @Test func theDocExampleWaitsForTheModelsTask() async throws {
    let scheduler = DispatchQueue.test
    let model = DocExampleRefreshModel(scheduler: scheduler.eraseToAnyScheduler())
    model.refreshTapped()
    try await scheduler.waitForNextScheduledAction()
    #expect(scheduler.pendingActionCount == 1)
    await scheduler.advance(by: .seconds(1))
    #expect(model.refreshes == 1)
  }
}

import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// The README's first two examples, word for word, so that what they promise stays true (its
/// third, the auto-advancing countdown, is `ReadmeAutoAdvanceExample`). `.ci/check-doc-snippets`
/// compiles the README's blocks; these run them. Change both together.
@Suite("The README's examples")
struct ReadmeExamplesTests {
  @MainActor
  final class HomeViewModel {
    private(set) var episodes: [String]?
    private let scheduler: AnySchedulerOf<DispatchQueue>

    init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }

    func reloadButtonTapped() {
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) {
        @MainActor [weak self] in self?.episodes = ["Pilot"]
      }
    }
  }

  @MainActor @Test func episodesLoadTenSecondsAfterTheTap() {
    let scheduler = DispatchQueue.test
    let model = HomeViewModel(scheduler: scheduler.eraseToAnyScheduler())
    model.reloadButtonTapped()

    scheduler.advance(by: .seconds(9))
    #expect(model.episodes == nil)
    scheduler.advance(by: .seconds(1))
    #expect(model.episodes == ["Pilot"])
  }

  @Test(.deterministicExecutionIsAvailable) func theCountdownTakesNoTime() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let model = ChatModel(scheduler: scheduler.eraseToAnyScheduler())
      model.sendButtonTapped("Hello")  // starts a Task that counts down 3, 2, 1, then sends

      await scheduler.advance()
      #expect(model.countdown == 3)
      await scheduler.advance(by: .seconds(3))
      #expect(model.sentMessages == ["Hello"])
    }
  }
}

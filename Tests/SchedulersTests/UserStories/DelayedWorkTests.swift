import Dispatch
import Schedulers
import Testing

// A home screen waits 10 seconds after a button tap, then loads episodes. With
// `.immediate` the test sees the episodes at once; with `.test` the test advances 9 s
// (nothing), then 1 s (episodes present).

@MainActor
final class HomeViewModel {
  private(set) var episodes: [Episode]?
  private let scheduler: AnySchedulerOf<DispatchQueue>
  private let loadEpisodes: @Sendable () -> [Episode]

  init(
    scheduler: AnySchedulerOf<DispatchQueue>,
    loadEpisodes: @escaping @Sendable () -> [Episode] = { [Episode(id: 42, title: "Pilot")] }
  ) {
    self.scheduler = scheduler
    self.loadEpisodes = loadEpisodes
  }

  func reloadButtonTapped() {
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) {
      @MainActor [weak self] in
      guard let self else { return }
      self.episodes = self.loadEpisodes()
    }
  }
}

@MainActor
@Suite("A ten-second delay, tested without waiting")
struct DelayedWorkTests {
  @Test func withTheImmediateSchedulerTheEpisodesArePresentAtOnce() {
    let model = HomeViewModel(scheduler: .immediate)
    model.reloadButtonTapped()
    #expect(model.episodes == [Episode(id: 42, title: "Pilot")])
  }

  @Test func withTheTestSchedulerNothingHappensUntilTenSecondsHavePassed() {
    let scheduler = DispatchQueue.test
    let model = HomeViewModel(scheduler: scheduler.eraseToAnyScheduler())
    model.reloadButtonTapped()

    scheduler.advance(by: .seconds(9))
    #expect(model.episodes == nil)

    scheduler.advance(by: .seconds(1))
    #expect(model.episodes == [Episode(id: 42, title: "Pilot")])
  }
}

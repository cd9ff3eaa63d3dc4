import Dispatch
import Schedulers
import Testing

// A view model that reloads an episode delivers the result on the main queue. It
// takes an `AnySchedulerOf<DispatchQueue>`: production passes `.main`, tests pass
// `.immediate` or `.test`. The view model has no generic parameter.

struct Episode: Equatable, Sendable {
  var id: Int
  var title: String
  var isFavorite = false
}

/// An API client whose callback arrives on a background thread in production.
struct EpisodeClient: Sendable {
  var fetchEpisode: @Sendable (_ completion: @escaping @Sendable (Episode) -> Void) -> Void

  static let mock = EpisodeClient { completion in completion(Episode(id: 42, title: "Pilot")) }
}

@MainActor
final class EpisodeViewModel {
  private(set) var episode: Episode?
  private let client: EpisodeClient
  private let mainQueue: AnySchedulerOf<DispatchQueue>

  init(client: EpisodeClient, mainQueue: AnySchedulerOf<DispatchQueue>) {
    self.client = client
    self.mainQueue = mainQueue
  }

  func reloadButtonTapped() {
    client.fetchEpisode { [mainQueue] episode in
      mainQueue.schedule { @MainActor [weak self] in self?.episode = episode }
    }
  }

  func favoriteButtonTapped() {
    episode?.isFavorite.toggle()
  }
}

@MainActor
@Suite("Injecting a scheduler without generics")
struct InjectingASchedulerTests {
  @Test func productionPassesTheMainQueue() {
    // Compiles with no generic parameter: the type is all a caller sees.
    let model: EpisodeViewModel = EpisodeViewModel(client: .mock, mainQueue: .main)
    _ = model
  }

  @Test func theImmediateSchedulerDeliversAtOnce() {
    let model = EpisodeViewModel(client: .mock, mainQueue: .immediate)
    model.reloadButtonTapped()
    #expect(model.episode == Episode(id: 42, title: "Pilot"))
  }

  @Test func theTestSchedulerDeliversWhenTheTestSaysSo() {
    let mainQueue = DispatchQueue.test
    let model = EpisodeViewModel(client: .mock, mainQueue: mainQueue.eraseToAnyScheduler())
    model.reloadButtonTapped()
    #expect(model.episode == nil)
    mainQueue.advance()
    #expect(model.episode == Episode(id: 42, title: "Pilot"))
  }
}

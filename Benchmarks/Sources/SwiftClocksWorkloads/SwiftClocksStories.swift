// swift-clocks' way of testing the stories: `TestClock`, whose `advance` yields a fixed number
// of times and hopes the woken tasks have run.

import Clocks
import StoryModels

public enum SwiftClocksStories {
  /// The debounced search on swift-clocks' `TestClock`.
  @MainActor public static func debouncedSearch() async -> Bool {
    let clock = TestClock()
    let model = DebouncedSearchModel(sleep: { try await clock.sleep(for: $0) }, api: SearchAPI())
    return await debouncedSearchTest(model) { await clock.advance(by: $0) }
  }

  /// The countdown on swift-clocks' `TestClock`.
  @MainActor public static func countdown() async -> Bool {
    let clock = TestClock()
    let model = CountdownModel(sleep: { try await clock.sleep(for: $0) })
    return await countdownTest(model) { await clock.advance(by: $0) }
  }

  /// The view state on swift-clocks' `TestClock`.
  @MainActor public static func viewState() async -> Bool {
    let clock = TestClock()
    let model = ProfileViewModel(sleep: { try await clock.sleep(for: $0) }, api: ProfileAPI())
    return await viewStateTest(model) { await clock.advance(by: $0) }
  }
}

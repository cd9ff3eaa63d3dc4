import Dependencies

// App code as swift-dependencies' users write it: each model sleeps on the clock it reads from
// `@Dependency(\.continuousClock)`, and knows nothing of schedulers.

/// A timer screen: counts down a second at a time, then says it has finished.
@MainActor
final class CountdownModel {
  @Dependency(\.continuousClock) var clock

  private(set) var secondsLeft = 0
  private(set) var hasFinished = false

  func start(from seconds: Int) async throws {
    secondsLeft = seconds
    hasFinished = false
    while secondsLeft > 0 {
      try await clock.sleep(for: .seconds(1))
      secondsLeft -= 1
    }
    hasFinished = true
  }
}

/// A text editor's autosave: a draft is saved once editing has paused for two seconds, so an
/// edit within that time puts the save off again.
@MainActor
final class DraftModel {
  @Dependency(\.continuousClock) var clock

  private(set) var text = ""
  private(set) var savedTexts: [String] = []
  private var pendingSave: Task<Void, Never>?

  var hasUnsavedChanges: Bool { text != (savedTexts.last ?? "") }

  func textChanged(_ newText: String) {
    text = newText
    pendingSave?.cancel()
    pendingSave = Task {
      // Cancelled by a later edit: that edit's save replaces this one.
      guard (try? await clock.sleep(for: .seconds(2))) != nil else { return }
      savedTexts.append(text)
    }
  }
}

import Schedulers
import SchedulersTesting
import Testing

/// The seed article's actor stub: a store the model saves to from a task it starts.
actor StoreStub {
  private(set) var saved: [String] = []
  func save(_ text: String) async {
    saved.append(text)
    // One more hop, through a task of its own, before the save counts as done.
    _ = await Task { [text] in text.count }.value
  }
}

@MainActor final class EditorModel {
  let store: StoreStub
  var badge = ""
  init(store: StoreStub) { self.store = store }

  func saveTapped() {
    badge = "Saving…"
    Task {
      await store.save("draft")
      badge = "Saved"
    }
  }
}

/// Waiting for a run to go idle, with no time and no test scheduler in the test.
@Suite("Waiting for the run to go idle")
struct IdleTests {
  @Test func idleReturnsOnceTheTasksTheBodyStartedHaveRunAsFarAsTheyCan() async throws {
    try await withDeterministicExecution { @MainActor in
      let store = StoreStub()
      let model = EditorModel(store: store)
      model.saveTapped()
      #expect(model.badge == "Saving…")
      await DeterministicExecution.idle()
      #expect(model.badge == "Saved")
      #expect(await store.saved == ["draft"])
    }
  }

  @Test func idleOutsideARunFailsSayingWhereToCallIt() async {
    await withKnownIssue {
      // Outside a run: a failure that says where to call it.
      await DeterministicExecution.idle()
    } matching: { issue in
      issue.description.contains("called outside a deterministic run")
        && issue.sourceLocation?.fileName == "IdleTests.swift"
    }
  }
}

@Suite("Waiting for the run to go idle, with the trait")
struct IdleWithTheTraitTests {
  @Test(.deterministicExecution) @MainActor
  func idleInsideATestWithTheTrait() async {
    let store = StoreStub()
    let model = EditorModel(store: store)
    model.saveTapped()
    await DeterministicExecution.idle()
    #expect(model.badge == "Saved")
  }
}

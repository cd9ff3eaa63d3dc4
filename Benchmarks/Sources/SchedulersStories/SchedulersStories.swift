// This package's way of testing the stories: the test scheduler inside a deterministic run,
// where async `advance` returns once every task it woke has run as far as it can.

import Dispatch
import Schedulers
import SchedulersDeterministic
import StoryModels

public enum SchedulersStories {
  /// The debounced search under `withDeterministicExecution(scheduler:)`.
  @MainActor public static func debouncedSearch() async -> Bool {
    let scheduler = DispatchQueue.test
    let passed = try? await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let model = DebouncedSearchModel(
        sleep: { try await scheduler.sleep(for: .duration($0)) }, api: SearchAPI())
      return await debouncedSearchTest(model) { await scheduler.advance(by: .duration($0)) }
    }
    return passed ?? false
  }

  /// The to-do list (no time in it) under `withDeterministicExecution`.
  @MainActor public static func todoList() async -> Bool {
    let passed = try? await withDeterministicExecution { @MainActor in
      await todoListTest(TodoListModel(api: TodoAPI()))
    }
    return passed ?? false
  }

  /// The countdown under `withDeterministicExecution(scheduler:)`.
  @MainActor public static func countdown() async -> Bool {
    let scheduler = DispatchQueue.test
    let passed = try? await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let model = CountdownModel(sleep: { try await scheduler.sleep(for: .duration($0)) })
      return await countdownTest(model) { await scheduler.advance(by: .duration($0)) }
    }
    return passed ?? false
  }

  /// The view state under `withDeterministicExecution(scheduler:)`.
  @MainActor public static func viewState() async -> Bool {
    let scheduler = DispatchQueue.test
    let passed = try? await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let model = ProfileViewModel(
        sleep: { try await scheduler.sleep(for: .duration($0)) }, api: ProfileAPI())
      return await viewStateTest(model) { await scheduler.advance(by: .duration($0)) }
    }
    return passed ?? false
  }

  // The same stories with their models on actors of their own (`StoryModels`' `…Actor`
  // types), from bodies that are not main-actor code: the tests whose runs need the main
  // queue least.

  /// The debounced search, its model on an actor, under `withDeterministicExecution(scheduler:)`.
  public static func debouncedSearchOffMainActor() async -> Bool {
    let scheduler = DispatchQueue.test
    let passed = try? await withDeterministicExecution(scheduler: scheduler) {
      let model = DebouncedSearchActor(
        sleep: { try await scheduler.sleep(for: .duration($0)) }, api: SearchAPI())
      return await debouncedSearchActorTest(model) { await scheduler.advance(by: .duration($0)) }
    }
    return passed ?? false
  }

  /// The countdown, its model on an actor, under `withDeterministicExecution(scheduler:)`.
  public static func countdownOffMainActor() async -> Bool {
    let scheduler = DispatchQueue.test
    let passed = try? await withDeterministicExecution(scheduler: scheduler) {
      let model = CountdownActor(sleep: { try await scheduler.sleep(for: .duration($0)) })
      return await countdownActorTest(model) { await scheduler.advance(by: .duration($0)) }
    }
    return passed ?? false
  }

  /// The view state, its model on an actor, under `withDeterministicExecution(scheduler:)`.
  public static func viewStateOffMainActor() async -> Bool {
    let scheduler = DispatchQueue.test
    let passed = try? await withDeterministicExecution(scheduler: scheduler) {
      let model = ProfileViewActor(
        sleep: { try await scheduler.sleep(for: .duration($0)) }, api: ProfileAPI())
      return await viewStateActorTest(model) { await scheduler.advance(by: .duration($0)) }
    }
    return passed ?? false
  }
}

// combine-schedulers' way of testing the stories: its `TestScheduler`, whose async `advance`
// yields (`Task.megaYield()`) and hopes the woken tasks have run, with and without
// swift-concurrency-extras' `withMainSerialExecutor`, as its users write them.

import CombineSchedulers
import ConcurrencyExtras
import Dispatch
import OpenCombineShim
import StoryModels

public enum CombineSchedulersStories {
  /// The debounced search on combine-schedulers' `TestScheduler`.
  @MainActor public static func debouncedSearch() async -> Bool {
    let scheduler = DispatchQueue.test
    let model = DebouncedSearchModel(
      sleep: { try await scheduler.sleep(for: .nanoseconds(nanoseconds($0))) }, api: SearchAPI())
    return await debouncedSearchTest(model) {
      await scheduler.advance(by: .nanoseconds(nanoseconds($0)))
    }
  }

  /// The same inside `withMainSerialExecutor`.
  @MainActor public static func debouncedSearchOnMainSerialExecutor() async -> Bool {
    var passed = false
    await withMainSerialExecutor { @MainActor in passed = await debouncedSearch() }
    return passed
  }

  /// The to-do list (no time in it) as a plain async test: no scheduler, no wrapper.
  @MainActor public static func todoList() async -> Bool {
    await todoListTest(TodoListModel(api: TodoAPI()))
  }

  /// The same inside `withMainSerialExecutor`, as a TCA `TestStore` test runs.
  @MainActor public static func todoListOnMainSerialExecutor() async -> Bool {
    var passed = false
    await withMainSerialExecutor { @MainActor in passed = await todoList() }
    return passed
  }

  /// The countdown on combine-schedulers' `TestScheduler`.
  @MainActor public static func countdown() async -> Bool {
    let scheduler = DispatchQueue.test
    let model = CountdownModel(sleep: {
      try await scheduler.sleep(for: .nanoseconds(nanoseconds($0)))
    })
    return await countdownTest(model) { await scheduler.advance(by: .nanoseconds(nanoseconds($0))) }
  }

  /// The same inside `withMainSerialExecutor`.
  @MainActor public static func countdownOnMainSerialExecutor() async -> Bool {
    var passed = false
    await withMainSerialExecutor { @MainActor in passed = await countdown() }
    return passed
  }

  /// The view state on combine-schedulers' `TestScheduler`.
  @MainActor public static func viewState() async -> Bool {
    let scheduler = DispatchQueue.test
    let model = ProfileViewModel(
      sleep: { try await scheduler.sleep(for: .nanoseconds(nanoseconds($0))) }, api: ProfileAPI())
    return await viewStateTest(model) { await scheduler.advance(by: .nanoseconds(nanoseconds($0))) }
  }

  /// The same inside `withMainSerialExecutor`.
  @MainActor public static func viewStateOnMainSerialExecutor() async -> Bool {
    var passed = false
    await withMainSerialExecutor { @MainActor in passed = await viewState() }
    return passed
  }

  // The same stories with their models on actors of their own, from bodies that are not
  // main-actor code. Only inside `withMainSerialExecutor`, which sends the actors' jobs to the
  // main thread too: without it, `megaYield` cannot know when another thread has run them.

  /// The debounced search, its model on an actor, on combine-schedulers' `TestScheduler`.
  public static func debouncedSearchOffMainActor() async -> Bool {
    let scheduler = DispatchQueue.test
    let model = DebouncedSearchActor(
      sleep: { try await scheduler.sleep(for: .nanoseconds(nanoseconds($0))) }, api: SearchAPI())
    return await debouncedSearchActorTest(model) {
      await scheduler.advance(by: .nanoseconds(nanoseconds($0)))
    }
  }

  /// The countdown, its model on an actor, on combine-schedulers' `TestScheduler`.
  public static func countdownOffMainActor() async -> Bool {
    let scheduler = DispatchQueue.test
    let model = CountdownActor(sleep: {
      try await scheduler.sleep(for: .nanoseconds(nanoseconds($0)))
    })
    return await countdownActorTest(model) {
      await scheduler.advance(by: .nanoseconds(nanoseconds($0)))
    }
  }

  /// The view state, its model on an actor, on combine-schedulers' `TestScheduler`.
  public static func viewStateOffMainActor() async -> Bool {
    let scheduler = DispatchQueue.test
    let model = ProfileViewActor(
      sleep: { try await scheduler.sleep(for: .nanoseconds(nanoseconds($0))) }, api: ProfileAPI())
    return await viewStateActorTest(model) {
      await scheduler.advance(by: .nanoseconds(nanoseconds($0)))
    }
  }

  static func nanoseconds(_ duration: Duration) -> Int {
    Int(duration.components.seconds) * 1_000_000_000
      + Int(duration.components.attoseconds / 1_000_000_000)
  }
}

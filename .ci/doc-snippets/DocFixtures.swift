// Fixtures for the Swift blocks of README.md and the DocC articles (.ci/check-doc-snippets):
// the models and values a fragment refers to without declaring them, each as the prose around
// the block describes it. A block that declares the same name shadows the fixture.

import Foundation
import Schedulers
import Synchronization

/// The test scheduler that fragments such as `scheduler.advance(by:)` refer to.
public let scheduler = DispatchQueue.test

/// Loads episodes ten seconds after a tap.
@MainActor public final class HomeModel {
  public private(set) var episodes: [String]?
  let scheduler: AnySchedulerOf<DispatchQueue>

  public init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }

  public func reloadButtonTapped() {
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) {
      @MainActor [weak self] in self?.episodes = ["Pilot"]
    }
  }
}

/// Searches 300 ms after the last keystroke.
@MainActor public final class SearchModel {
  public private(set) var results: [String] = []
  private let debouncer: Debouncer<AnySchedulerOf<DispatchQueue>>

  public init(scheduler: AnySchedulerOf<DispatchQueue>) {
    debouncer = Debouncer(for: .milliseconds(300), scheduler: scheduler)
  }

  public func queryChanged(_ query: String) {
    debouncer.call { @MainActor [weak self] in self?.results = [query] }
  }
}

/// Counts down 3, 2, 1 with one-second pauses, then sends the message.
@MainActor public final class ChatModel {
  public private(set) var countdown: Int?
  public private(set) var sentMessages: [String] = []
  private let scheduler: AnySchedulerOf<DispatchQueue>

  public init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }

  public func sendButtonTapped(_ message: String) {
    Task {
      for count in [3, 2, 1] {
        countdown = count
        try await scheduler.sleep(for: .seconds(1))
      }
      countdown = nil
      sentMessages.append(message)
    }
  }
}

/// Ticks down from 3, one second at a time.
@MainActor public final class CountdownModel {
  public private(set) var secondsLeft = 3
  private let scheduler: AnySchedulerOf<DispatchQueue>

  public init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }

  public func start() {
    Task {
      while secondsLeft > 0 {
        try await scheduler.sleep(for: .seconds(1))
        secondsLeft -= 1
      }
    }
  }
}

/// A client that polls from a Dispatch callback, outside any task.
public struct LegacyClient: Sendable {
  public func startPolling(
    scheduler: some Scheduler<DispatchQueue.SchedulerTimeType>
      & Sendable
  ) {
    DispatchQueue.global().async {
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) {}
    }
  }
}

/// The legacy client of the "work that arrives from outside" fragment.
public let legacyClient = LegacyClient()

/// The actor stub of "Waiting without a scheduler": a store the editor saves to.
public actor StoreStub {
  public private(set) var saved: [String] = []
  public init() {}
  public func save(_ text: String) { saved.append(text) }
}

/// Saves through the store from a task it starts, and shows a badge when done.
@MainActor public final class EditorModel {
  public private(set) var badge = ""
  private let store: StoreStub

  public init(store: StoreStub) { self.store = store }

  public func saveTapped() {
    Task {
      await store.save("draft")
      badge = "Saved"
    }
  }
}

/// The API of the retry fragment: a forecast that may fail.
public struct WeatherAPI: Sendable {
  public func forecast(for city: String) async throws -> String { "Sunny in \(city)" }
}

/// The API the retry fragment calls.
public let api = WeatherAPI()

/// A thread-safe counter that `@Sendable` closures increment.
public final class Counter: Sendable {
  private let storage = Mutex(0)
  public init() {}
  public func increment() { storage.withLock { $0 += 1 } }
  public var value: Int { storage.withLock { $0 } }
}

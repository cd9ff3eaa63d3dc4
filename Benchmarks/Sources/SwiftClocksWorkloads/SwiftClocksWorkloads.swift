// The peers' side of the async workloads, with swift-clocks 1.1.1.

import Clocks
import Synchronization

/// swift-clocks' versions of the benchmark workloads.
public enum SwiftClocksWorkloads {
  /// `TestClock`: one task per offset sleeps until it, then the clock advances past all.
  ///
  /// `TestClock` cannot tell when the tasks have started sleeping (its `advance` yields to let
  /// them, a fixed number of times), so the advance is repeated until every task has woken:
  /// a deadline already passed returns at once. Returns how many tasks woke.
  public static func sleepers(offsets: [Int], horizon: Int) async -> Int {
    let clock = TestClock()
    let start = clock.now
    let woken = Counter()
    // Unstructured tasks, as in swift-schedulers' version (a task group's bookkeeping is
    // O(n) per finished child in Swift 6.3 and would dominate both).
    let sleepers = offsets.map { offset in
      Task {
        try? await clock.sleep(until: start.advanced(by: .nanoseconds(offset)))
        woken.increment()
      }
    }
    await clock.advance(by: .nanoseconds(horizon))
    while woken.value < offsets.count {
      await clock.advance(by: .zero)
    }
    for sleeper in sleepers { await sleeper.value }
    return woken.value
  }
}

/// Counts woken tasks.
final class Counter: Sendable {
  private let storage = Atomic(0)
  func increment() { storage.add(1, ordering: .relaxed) }
  var value: Int { storage.load(ordering: .acquiring) }
}

// The apples-to-apples operator rows: swift-async-algorithms 1.1.4's `debounce` and `_throttle`
// beside this package's `debounce` and `throttle`, each an `AsyncSequence` operator on the same
// virtual clock (this package's test scheduler, through `scheduler.clock` for the peer), driven
// the same way in a deterministic run: n elements spaced wider than the interval, so each one
// passes. What differs is only the operator.

import AsyncAlgorithms
import Dispatch
import ScheduleBenchWorkloads
import Schedulers
import SchedulersDeterministic
import Synchronization

/// Counts the elements that came out.
final class Received: Sendable {
  private let storage = Atomic(0)
  func increment() { storage.add(1, ordering: .relaxed) }
  var count: Int { storage.load(ordering: .acquiring) }
}

extension Workload {
  /// swift-async-algorithms' `debounce(for:clock:)` on `scheduler.clock`, in a deterministic run.
  public static let asyncAlgorithmsDebounce = Workload(
    name: "async-algorithms-debounce",
    summary: "swift-async-algorithms debounce on scheduler.clock, deterministic run"
  ) { (size: Int) async -> Int in
    await drive(size: size) { upstream, scheduler in
      upstream.debounce(for: .milliseconds(1), clock: scheduler.clock)
    }
  }

  /// swift-async-algorithms' `_throttle(for:clock:latest:)` on `scheduler.clock`, in a
  /// deterministic run.
  public static let asyncAlgorithmsThrottle = Workload(
    name: "async-algorithms-throttle",
    summary: "swift-async-algorithms _throttle on scheduler.clock, deterministic run"
  ) { (size: Int) async -> Int in
    await drive(size: size) { upstream, scheduler in
      upstream._throttle(for: .milliseconds(1), clock: scheduler.clock, latest: true)
    }
  }
}

/// Sends `size` elements 2 ms apart through `operator` on a test scheduler in a deterministic
/// run, advancing after each; returns how many came out.
func drive<Output: AsyncSequence & Sendable>(
  size: Int,
  _ operator: @escaping @Sendable (AsyncStream<Int>, TestSchedulerOf<DispatchQueue>) -> Output
) async -> Int where Output.Element == Int {
  let scheduler = DispatchQueue.test
  let received = Received()
  try? await withDeterministicExecution(scheduler: scheduler) {
    let (upstream, continuation) = AsyncStream<Int>.makeStream()
    let consumer = Task {
      do {
        for try await _ in `operator`(upstream, scheduler) { received.increment() }
      } catch {}
    }
    for element in 0..<size {
      continuation.yield(element)
      await scheduler.advance(by: .milliseconds(2))
    }
    continuation.finish()
    await consumer.value
  }
  return received.count
}

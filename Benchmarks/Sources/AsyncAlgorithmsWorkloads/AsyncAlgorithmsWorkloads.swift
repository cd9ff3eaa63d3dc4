// The apples-to-apples operator rows: swift-async-algorithms 1.1.4's `debounce` and `_throttle`
// beside this package's `debounce` and `throttle`, each an `AsyncSequence` operator on the same
// virtual clock (this package's test scheduler, through `scheduler.clock` for the peer), driven
// the same way in a deterministic run by `Workload.operatorWorkload`: n elements spaced wider
// than the interval, so each one passes. What differs is only the operator.

import AsyncAlgorithms
import ScheduleBenchWorkloads
import Schedulers

extension Workload {
  /// swift-async-algorithms' `debounce(for:clock:)` on `scheduler.clock`, in a deterministic run.
  public static let asyncAlgorithmsDebounce = operatorWorkload(
    name: "async-algorithms-debounce",
    summary: "swift-async-algorithms debounce on scheduler.clock, deterministic run"
  ) { $0.debounce(for: .milliseconds(1), clock: $1.clock) }

  /// swift-async-algorithms' `_throttle(for:clock:latest:)` on `scheduler.clock`, in a
  /// deterministic run.
  public static let asyncAlgorithmsThrottle = operatorWorkload(
    name: "async-algorithms-throttle",
    summary: "swift-async-algorithms _throttle on scheduler.clock, deterministic run"
  ) { $0._throttle(for: .milliseconds(1), clock: $1.clock, latest: true) }
}

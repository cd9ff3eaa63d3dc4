import Dispatch
import Schedulers
import Testing

/// Runs `body` once for each seed with a test scheduler that shuffles actions due at the same
/// instant, to expose tests that depend on an order nobody promised. When the body throws for
/// a seed, it records a failure naming the seed (reproduce it with
/// `DispatchQueue.test(order: .shuffled(seed:))`) and stops.
///
/// Write the body's checks with `try #require` (or throw), so that a failure stops that seed:
///
/// ```swift
/// @Test func bothTimersFireWhateverTheirOrder() throws {
///   try forEachShuffledOrder(seeds: 0..<50) { scheduler in
///     let model = Dashboard(scheduler: scheduler.eraseToAnyScheduler())
///     model.start()
///     scheduler.advance(by: .seconds(1))
///     try #require(model.panels == ["news", "weather"])
///   }
/// }
/// ```
///
/// - Returns: the seed that failed, or `nil`.
@discardableResult
public func forEachShuffledOrder(
  seeds: some Sequence<UInt64>,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ body: (TestSchedulerOf<DispatchQueue>) throws -> Void
) -> UInt64? {
  for seed in seeds {
    do {
      try body(DispatchQueue.test(order: .shuffled(seed: seed)))
    } catch {
      // A failed `#require` has already recorded its expectation; other errors are shown.
      let reason = error is ExpectationFailedError ? "an expectation failed" : "\(error)"
      FailureReporter.recordFailure(
        """
        Failed with actions due at the same instant shuffled by seed \(seed): \(reason). \
        Reproduce with DispatchQueue.test(order: .shuffled(seed: \(seed))).
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
      return seed
    }
  }
  return nil
}

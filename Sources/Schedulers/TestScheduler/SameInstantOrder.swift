#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a ``TestScheduler`` orders actions due at the same instant.
///
/// ```swift
/// let fifo = DispatchQueue.test
/// let shuffled = DispatchQueue.test(order: .shuffled(seed: 7))
/// let shuffledThisRun = DispatchQueue.test(order: .shuffled)
/// ```
///
/// A struct with static members rather than an enum, so that `.shuffled` alone and
/// `.shuffled(seed:)` can both be written wherever an order is expected.
public struct SameInstantOrder: Sendable, Hashable, CustomStringConvertible {
  /// The seed of a shuffled order; `nil` for first-in, first-out.
  public let seed: UInt64?

  private init(seed: UInt64?) { self.seed = seed }

  /// The order they were scheduled in: the default, and what tests may rely on.
  public static let firstInFirstOut = SameInstantOrder(seed: nil)

  /// A pseudo-random order drawn from `seed`: the same seed gives the same order.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test(order: .shuffled(seed: 42))
  /// ```
  public static func shuffled(seed: UInt64) -> SameInstantOrder { SameInstantOrder(seed: seed) }

  /// A shuffled order with this process's seed: the one in the `SCHEDULERS_SHUFFLE_SEED`
  /// environment variable when it is set (to reproduce a failing run without editing code),
  /// otherwise one drawn at random when first needed and written once to standard error.
  ///
  /// Every `.shuffled` scheduler of a process uses the same seed, so one line of output and
  /// one environment variable reproduce a whole test run. To try many orders in one test, use
  /// `forEachShuffledOrder(seeds:)` from `SchedulersTesting`.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test(order: .shuffled)
  /// ```
  public static var shuffled: SameInstantOrder { .shuffled(seed: processSeed) }

  private static let processSeed: UInt64 = {
    if let seed = EnvironmentValue.read(
      "SCHEDULERS_SHUFFLE_SEED", expected: EnvironmentValue.numberExpected, EnvironmentValue.number)
    {
      return seed
    }
    let seed = UInt64.random(in: 0...UInt64.max)
    TestFailure.writeToStandardError(
      """
      SameInstantOrder.shuffled: this process shuffles actions due at the same instant with \
      seed \(seed); reproduce with SCHEDULERS_SHUFFLE_SEED=\(seed).

      """)
    return seed
  }()

  /// `firstInFirstOut`, or `shuffled(seed: 7)`.
  public var description: String {
    seed.map { "shuffled(seed: \($0))" } ?? "firstInFirstOut"
  }

  /// Appended to a test scheduler's failure messages when the order is shuffled, so that the
  /// failure says how to reproduce it.
  package var reproductionHint: String {
    seed.map {
      " (Actions due at the same instant run shuffled by seed \($0): reproduce with "
        + "`order: .shuffled(seed: \($0))`.)"
    } ?? ""
  }
}

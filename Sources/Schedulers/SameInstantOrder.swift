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
/// ```
public enum SameInstantOrder: Sendable, Equatable {
  /// The order they were scheduled in: the default, and what tests may rely on.
  case firstInFirstOut
  /// A pseudo-random order drawn from `seed`: the same seed gives the same order.
  case shuffled(seed: UInt64)

  /// A shuffled order with a fresh seed, or the seed in the `SCHEDULERS_SHUFFLE_SEED`
  /// environment variable when it is set (to reproduce a failing run without editing code).
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test(order: .shuffled)
  /// ```
  public static var shuffled: SameInstantOrder {
    if let text = getenv("SCHEDULERS_SHUFFLE_SEED"), let seed = UInt64(String(cString: text)) {
      return .shuffled(seed: seed)
    }
    return .shuffled(seed: UInt64.random(in: 0...UInt64.max))
  }
}

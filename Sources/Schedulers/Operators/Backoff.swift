/// How long ``withRetry(maxAttempts:backoff:scheduler:using:retryingWhen:fileID:filePath:line:column:isolation:operation:)``
/// waits before each retry.
///
/// The delay before retry `n` (1 for the retry after the first failure):
/// - `constant(d)`: `d` every time;
/// - `linear(initial: i, increment: k, maximum: m)`: `i + (n - 1) * k`, at most `m`;
/// - `exponential(initial: i, multiplier: x, maximum: m)`: `i * x^(n - 1)`, at most `m`;
///
/// then, if ``jittered(_:)``, drawn at random around that delay (see ``Jitter``).
///
/// ```swift
/// let backoff = Backoff.exponential(initial: .seconds(1), maximum: .seconds(30))
///   .jittered(.full)
/// backoff.delay(beforeRetry: 3)  // without jitter: 4 s
/// ```
public struct Backoff: Sendable, Equatable, CustomStringConvertible {
  enum Shape: Sendable, Equatable {
    case constant(Duration)
    case linear(initial: Duration, increment: Duration, maximum: Duration)
    case exponential(initial: Duration, multiplier: Double, maximum: Duration)
  }

  let shape: Shape
  /// How the delay is spread at random; ``Jitter/none`` unless ``jittered(_:)`` set it.
  public let jitter: Jitter

  /// The same delay before every retry.
  ///
  /// - Precondition: `delay` is not negative.
  public static func constant(_ delay: Duration) -> Backoff {
    requireNotNegative(delay, "constant(_:)", "delay")
    return Backoff(shape: .constant(delay), jitter: .none)
  }

  /// A delay that grows by `increment` before each retry, up to `maximum`.
  ///
  /// - Precondition: no duration is negative.
  public static func linear(
    initial: Duration, increment: Duration, maximum: Duration = .seconds(Int64.max)
  ) -> Backoff {
    requireNotNegative(initial, "linear", "initial")
    requireNotNegative(increment, "linear", "increment")
    requireNotNegative(maximum, "linear", "maximum")
    return Backoff(
      shape: .linear(initial: initial, increment: increment, maximum: maximum), jitter: .none)
  }

  /// A delay multiplied by `multiplier` before each retry, up to `maximum`.
  ///
  /// - Precondition: no duration is negative, and `multiplier` is finite and at least 1.
  public static func exponential(
    initial: Duration, multiplier: Double = 2, maximum: Duration
  ) -> Backoff {
    requireNotNegative(initial, "exponential", "initial")
    requireNotNegative(maximum, "exponential", "maximum")
    precondition(
      multiplier.isFinite && multiplier >= 1,
      "Backoff.exponential needs a finite multiplier of at least 1, got \(multiplier)")
    return Backoff(
      shape: .exponential(initial: initial, multiplier: multiplier, maximum: maximum),
      jitter: .none)
  }

  /// The same backoff with its delays spread at random by `jitter`, so that many clients
  /// failing at once do not retry at once.
  public func jittered(_ jitter: Jitter) -> Backoff {
    Backoff(shape: shape, jitter: jitter)
  }

  /// The delay before retry `retry` (1 for the retry after the first failure), before jitter.
  ///
  /// - Precondition: `retry` is at least 1.
  public func delay(beforeRetry retry: Int) -> Duration {
    precondition(retry >= 1, "Backoff.delay(beforeRetry:) counts retries from 1, got \(retry)")
    switch shape {
    case .constant(let delay):
      return delay
    case .linear(let initial, let increment, let maximum):
      // Compared before multiplying, so that a long run of retries cannot overflow.
      let steps = Double(retry - 1)
      let grown = seconds(initial) + seconds(increment) * steps
      return grown >= seconds(maximum) ? maximum : initial + increment * (retry - 1)
    case .exponential(let initial, let multiplier, let maximum):
      let grown = seconds(initial) * pow(multiplier, retry - 1)
      return grown >= seconds(maximum) ? maximum : initial * pow(multiplier, retry - 1)
    }
  }

  /// The delay before retry `retry`, with the jitter drawn from `generator`.
  public func delay(
    beforeRetry retry: Int, using generator: inout some RandomNumberGenerator
  ) -> Duration {
    jitter.apply(to: delay(beforeRetry: retry), using: &generator)
  }

  /// "exponential from 1 s, ×2, up to 30 s, full jitter".
  public var description: String {
    let base: String
    switch shape {
    case .constant(let delay): base = "constant \(describeDuration(delay))"
    case .linear(let initial, let increment, let maximum):
      base =
        "linear from \(describeDuration(initial)), +\(describeDuration(increment)), up to \(describeDuration(maximum))"
    case .exponential(let initial, let multiplier, let maximum):
      base =
        "exponential from \(describeDuration(initial)), ×\(multiplier), up to \(describeDuration(maximum))"
    }
    return jitter == .none ? base : "\(base), \(jitter)"
  }

  private static func requireNotNegative(
    _ duration: Duration, _ method: StaticString, _ name: StaticString
  ) {
    precondition(
      duration >= .zero,
      "Backoff.\(method) needs a \(name) of zero or more, got \(describeDuration(duration))")
  }
}

private func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

private func pow(_ base: Double, _ exponent: Int) -> Double {
  var result = 1.0
  for _ in 0..<max(0, exponent) {
    result *= base
    if result.isInfinite { break }
  }
  return result
}

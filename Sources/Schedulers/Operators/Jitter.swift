/// How a ``Backoff`` spreads its delays at random.
///
/// ```swift
/// let backoff = Backoff.constant(.seconds(2)).jittered(.proportional(0.1))  // 1.8 s to 2.2 s
/// ```
public enum Jitter: Sendable, Equatable, CustomStringConvertible {
  /// The delay as computed.
  case none
  /// Anywhere from zero to the delay ("full jitter").
  case full
  /// Half the delay, plus anywhere from zero to the other half ("equal jitter").
  case equal
  /// The delay, plus or minus up to `fraction` of it (`0.1` is ±10%).
  case proportional(Double)

  /// "full jitter", "±10% jitter".
  public var description: String {
    switch self {
    case .none: "no jitter"
    case .full: "full jitter"
    case .equal: "equal jitter"
    case .proportional(let fraction): "±\(fraction * 100)% jitter"
    }
  }

  /// `delay` spread as this jitter says, drawn from `generator`.
  ///
  /// - Precondition: a proportional fraction is between 0 and 1.
  public func apply(
    to delay: Duration, using generator: inout some RandomNumberGenerator
  ) -> Duration {
    switch self {
    case .none:
      return delay
    case .full:
      return delay * Double.random(in: 0...1, using: &generator)
    case .equal:
      return delay / 2 + (delay / 2) * Double.random(in: 0...1, using: &generator)
    case .proportional(let fraction):
      precondition(
        fraction >= 0 && fraction <= 1,
        "Jitter.proportional needs a fraction between 0 and 1, got \(fraction)")
      return delay * (1 + fraction * Double.random(in: -1...1, using: &generator))
    }
  }
}

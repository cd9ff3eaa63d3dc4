extension Strideable {
  /// The latest instant `self + k × interval` (k ≥ 0) that is not after `instant`; `self` when
  /// `instant` is before it.
  ///
  /// A grid of instants `interval` apart, starting at `self`: where a timer that dropped its
  /// missed ticks, or a window that closed while nothing happened, resumes. Found with
  /// O(log k) additions (strides have no division in general): gallop with doubling steps,
  /// then come back down through them.
  ///
  /// - Precondition: `interval` is greater than zero.
  @inlinable
  package func latestStep(by interval: Stride, notAfter instant: Self) -> Self {
    precondition(interval > .zero, "A grid needs a step greater than zero")
    var base = self
    var steps: [Stride] = []
    var step = interval
    while base.advanced(by: step) <= instant {
      base = base.advanced(by: step)
      steps.append(step)
      step += step
    }
    for step in steps.reversed() where base.advanced(by: step) <= instant {
      base = base.advanced(by: step)
    }
    return base
  }
}

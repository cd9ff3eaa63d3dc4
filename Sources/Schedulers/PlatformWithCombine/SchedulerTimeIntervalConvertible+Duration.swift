#if canImport(Combine)
  #if canImport(Foundation)
    import Foundation
  #endif

  // Combine's `SchedulerTimeIntervalConvertible` has the five constructors only; the package's
  // own protocol (where Combine is absent) also converts to and from `Duration`. These give
  // Combine's strides the same conversions, so the clock view and `Duration(stride)` work.

  extension SchedulerTimeIntervalConvertible {
    /// Creates a stride equal to `duration`, rounded to the stride's resolution.
    ///
    /// Durations beyond `Int.max` nanoseconds (about 292 years) are clamped to it, which every
    /// scheduler treats as "never in practice". (Converting them through `.seconds(Double)`
    /// would trap on Apple platforms, whose Dispatch stride computes `Int(seconds * 1e9)`.)
    public init(_ duration: Duration) {
      self = .nanoseconds(Nanoseconds.saturating(duration))
    }

  }

  // Every scheduler's stride is comparable and numeric (`Strideable.Stride` requires it), which
  // is what reading a stride of unknown type needs.
  extension SchedulerTimeIntervalConvertible where Self: Comparable & SignedNumeric {
    /// This stride as a `Duration`.
    ///
    /// Combine's strides say what they are worth only through comparisons, so a stride of a type
    /// this package does not know is found by a binary search over nanoseconds (62 steps).
    /// Dispatch, run-loop and operation-queue strides are read directly.
    public var duration: Duration {
      if let known = self as? any DurationReadableStride { return known.exactDuration }
      let zero = Self.nanoseconds(0)
      if self == zero { return .zero }
      let negative = self < zero
      var (low, high) = (0, Int.max)  // the answer, in nanoseconds, lies in low...high
      while low < high {
        let middle = low + (high - low) / 2
        let probe = Self.nanoseconds(negative ? -middle : middle)
        if negative ? probe <= self : probe >= self { high = middle } else { low = middle + 1 }
      }
      return .nanoseconds(negative ? -low : low)
    }
  }

  extension Duration {
    /// Creates a duration equal to a scheduler's stride.
    ///
    /// ```swift
    /// let timeout = Duration(DispatchQueue.SchedulerTimeType.Stride.seconds(2))  // .seconds(2)
    /// ```
    @inlinable
    public init<Stride: SchedulerTimeIntervalConvertible & Comparable & SignedNumeric>(
      _ stride: Stride
    ) {
      self = stride.duration
    }
  }

  /// Strides whose value the package reads directly (see `duration`).
  protocol DurationReadableStride {
    var exactDuration: Duration { get }
  }

  extension DispatchQueue.SchedulerTimeType.Stride: DurationReadableStride {
    var exactDuration: Duration { .nanoseconds(magnitude) }
  }

  #if canImport(Foundation)
    extension RunLoop.SchedulerTimeType.Stride: DurationReadableStride {
      var exactDuration: Duration { .seconds(timeInterval) }
    }

    extension OperationQueue.SchedulerTimeType.Stride: DurationReadableStride {
      var exactDuration: Duration { .seconds(timeInterval) }
    }
  #endif
#endif

import Dispatch

// Where Combine can be imported, Combine's `DispatchQueue.SchedulerTimeType` is used instead; see Sources/Schedulers/PlatformWithCombine/.
#if !canImport(Combine)

  extension DispatchQueue {
    /// An instant of a dispatch queue's clock: a `Sendable` wrapper of `DispatchTime`.
    ///
    /// Arithmetic saturates at the ends of `DispatchTime`'s range (zero and
    /// `DispatchTime.distantFuture`), as `DispatchTime` itself does, so advancing a far-future
    /// instant never traps or wraps around.
    ///
    /// ```swift
    /// let now = DispatchQueue.main.now
    /// let later = now.advanced(by: .milliseconds(300))
    /// now.distance(to: later)  // .milliseconds(300)
    /// ```
    public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable {
      /// Nanoseconds of system uptime, as in `DispatchTime.uptimeNanoseconds`.
      public var uptimeNanoseconds: UInt64

      /// The instant as a `DispatchTime`.
      @inlinable
      public var dispatchTime: DispatchTime { DispatchTime(uptimeNanoseconds: uptimeNanoseconds) }

      /// Creates an instant from a `DispatchTime`.
      @inlinable
      public init(_ time: DispatchTime) { uptimeNanoseconds = time.uptimeNanoseconds }

      /// Creates an instant from nanoseconds of system uptime.
      @inlinable
      public init(uptimeNanoseconds: UInt64) { self.uptimeNanoseconds = uptimeNanoseconds }

      /// The signed distance from this instant to `other`, saturating at ±292 years.
      @inlinable
      public func distance(to other: SchedulerTimeType) -> Stride {
        if other.uptimeNanoseconds >= uptimeNanoseconds {
          let difference = other.uptimeNanoseconds - uptimeNanoseconds
          return Stride(nanoseconds: difference > UInt64(Int.max) ? Int.max : Int(difference))
        } else {
          let difference = uptimeNanoseconds - other.uptimeNanoseconds
          return Stride(nanoseconds: difference > UInt64(Int.max) ? Int.min : -Int(difference))
        }
      }

      /// The instant `stride` away from this one, saturating at zero and at the far future.
      @inlinable
      public func advanced(by stride: Stride) -> SchedulerTimeType {
        let magnitude = UInt64(stride.nanoseconds.magnitude)
        if stride.nanoseconds >= 0 {
          let (sum, overflow) = uptimeNanoseconds.addingReportingOverflow(magnitude)
          return SchedulerTimeType(uptimeNanoseconds: overflow ? .max : sum)
        } else {
          return SchedulerTimeType(
            uptimeNanoseconds: magnitude > uptimeNanoseconds ? 0 : uptimeNanoseconds - magnitude)
        }
      }

      @inlinable
      public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
        lhs.uptimeNanoseconds < rhs.uptimeNanoseconds
      }

      /// A signed interval of a dispatch queue's clock, in nanoseconds.
      ///
      /// Integer and floating-point literals are seconds, as in Combine:
      ///
      /// ```swift
      /// scheduler.advance(by: 1)     // one second
      /// scheduler.advance(by: 0.25)  // 250 ms
      /// scheduler.advance(by: .milliseconds(250))
      /// ```
      public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
        ExpressibleByFloatLiteral, Hashable, Codable, Sendable, CustomStringConvertible
      {
        /// The interval in the largest whole unit: `1 s`, `300 ms`, `2 µs`, `7 ns`.
        public var description: String { describeNanoseconds(nanoseconds) }

        /// The length of the interval in nanoseconds (negative for a backward interval).
        public var nanoseconds: Int

        /// The length of the interval in nanoseconds, as Combine's stride names it.
        ///
        /// Unlike most `Numeric` types, this is signed: it equals ``nanoseconds``.
        @inlinable
        public var magnitude: Int { nanoseconds }

        /// Creates an interval of `nanoseconds`.
        @inlinable
        public init(nanoseconds: Int) { self.nanoseconds = nanoseconds }

        /// Creates an interval from a `DispatchTimeInterval`; `.never` becomes the longest stride.
        public init(_ timeInterval: DispatchTimeInterval) {
          switch timeInterval {
          case .seconds(let s): nanoseconds = Nanoseconds.multiply(s, by: 1_000_000_000, "seconds")
          case .milliseconds(let ms):
            nanoseconds = Nanoseconds.multiply(ms, by: 1_000_000, "milliseconds")
          case .microseconds(let us):
            nanoseconds = Nanoseconds.multiply(us, by: 1_000, "microseconds")
          case .nanoseconds(let ns): nanoseconds = ns
          case .never: nanoseconds = .max
          @unknown default: nanoseconds = .max
          }
        }

        /// The interval as a `DispatchTimeInterval`.
        @inlinable
        public var timeInterval: DispatchTimeInterval { .nanoseconds(nanoseconds) }

        /// Creates an interval equal to `duration`, rounded down to whole nanoseconds.
        @inlinable
        public init(_ duration: Duration) { nanoseconds = Nanoseconds.fromDuration(duration) }

        /// The interval as a `Duration`.
        @inlinable
        public var duration: Duration { Nanoseconds.toDuration(nanoseconds) }

        /// Creates an interval of `value` seconds.
        @inlinable
        public init(integerLiteral value: Int) {
          nanoseconds = Nanoseconds.multiply(value, by: 1_000_000_000, "seconds")
        }

        /// Creates an interval of `value` seconds.
        @inlinable
        public init(floatLiteral value: Double) { nanoseconds = Nanoseconds.fromSeconds(value) }

        /// Creates an interval of `source` seconds, or `nil` if it does not fit.
        public init?<T: BinaryInteger>(exactly source: T) {
          guard let seconds = Int(exactly: source) else { return nil }
          let (result, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
          if overflow { return nil }
          nanoseconds = result
        }

        @inlinable public static func seconds(_ s: Int) -> Stride {
          Stride(nanoseconds: Nanoseconds.multiply(s, by: 1_000_000_000, "seconds"))
        }
        @inlinable public static func seconds(_ s: Double) -> Stride {
          Stride(nanoseconds: Nanoseconds.fromSeconds(s))
        }
        @inlinable public static func milliseconds(_ ms: Int) -> Stride {
          Stride(nanoseconds: Nanoseconds.multiply(ms, by: 1_000_000, "milliseconds"))
        }
        @inlinable public static func microseconds(_ us: Int) -> Stride {
          Stride(nanoseconds: Nanoseconds.multiply(us, by: 1_000, "microseconds"))
        }
        @inlinable public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

        @inlinable public static var zero: Stride { Stride(nanoseconds: 0) }

        @inlinable public static func < (lhs: Stride, rhs: Stride) -> Bool {
          lhs.nanoseconds < rhs.nanoseconds
        }
        // Overflow stops with the values and the operation, not a bare "arithmetic overflow".
        @inlinable public static func + (lhs: Stride, rhs: Stride) -> Stride {
          Stride(
            nanoseconds: Nanoseconds.checkedStrideArithmetic(lhs.nanoseconds, "+", rhs.nanoseconds))
        }
        @inlinable public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        @inlinable public static func - (lhs: Stride, rhs: Stride) -> Stride {
          Stride(
            nanoseconds: Nanoseconds.checkedStrideArithmetic(lhs.nanoseconds, "-", rhs.nanoseconds))
        }
        @inlinable public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
        /// The product of two strides' nanosecond counts, as Combine defines it.
        @inlinable public static func * (lhs: Stride, rhs: Stride) -> Stride {
          Stride(
            nanoseconds: Nanoseconds.checkedStrideArithmetic(lhs.nanoseconds, "*", rhs.nanoseconds))
        }
        @inlinable public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
        @inlinable public static prefix func - (operand: Stride) -> Stride {
          Stride(nanoseconds: Nanoseconds.checkedStrideArithmetic(0, "-", operand.nanoseconds))
        }
      }
    }
  }

#endif

import Foundation

// Where Combine can be imported, `RunLoop.SchedulerTimeType` and
// `OperationQueue.SchedulerTimeType` are Combine's; see Sources/Schedulers/PlatformWithCombine/.
#if !canImport(Combine)

  /// An instant of a `Date`-based scheduler's clock: `RunLoop.SchedulerTimeType` and
  /// `OperationQueue.SchedulerTimeType`, in Combine's shape.
  ///
  /// `Owner` only keeps the run loop's and the operation queue's time types apart, as Combine's
  /// are two types. Strides are in seconds, as `TimeInterval`s:
  ///
  /// ```swift
  /// let now = RunLoop.main.now
  /// let later = now.advanced(by: .milliseconds(300))
  /// now.distance(to: later).timeInterval  // 0.3
  /// ```
  public struct DateSchedulerTimeType<Owner>: Strideable, Hashable, Codable, Sendable {
    /// The instant as a date.
    public var date: Date

    /// Creates an instant at `date`.
    public init(_ date: Date) { self.date = date }

    /// The distance from this instant to `other`, in seconds.
    public func distance(to other: Self) -> Stride {
      Stride(other.date.timeIntervalSince(date))
    }

    /// The instant `stride` after this one.
    public func advanced(by stride: Stride) -> Self {
      Self(date.addingTimeInterval(stride.timeInterval))
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.date < rhs.date }

    /// A distance between two instants, in seconds.
    ///
    /// Integer and floating-point literals are seconds, as in Combine:
    ///
    /// ```swift
    /// let scheduler = RunLoop.test
    /// scheduler.advance(by: 0.25)  // 250 ms
    /// scheduler.advance(by: .milliseconds(250))
    /// ```
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
      ExpressibleByFloatLiteral, Hashable, Codable, Sendable, CustomStringConvertible
    {
      public typealias FloatLiteralType = TimeInterval
      public typealias IntegerLiteralType = TimeInterval
      public typealias Magnitude = TimeInterval

      /// The length of the interval in seconds (negative for a backward interval).
      public var timeInterval: TimeInterval

      /// The length of the interval in seconds, as Combine's stride names it.
      ///
      /// Unlike most `Numeric` types, this is signed: it equals ``timeInterval``.
      public var magnitude: TimeInterval { timeInterval }

      /// Creates a stride of `timeInterval` seconds.
      ///
      /// - Precondition: `timeInterval` is finite.
      public init(_ timeInterval: TimeInterval) {
        precondition(
          timeInterval.isFinite,
          "A scheduler stride needs a finite number of seconds, got \(timeInterval)")
        self.timeInterval = timeInterval
      }

      public init(floatLiteral value: TimeInterval) { self.init(value) }
      public init(integerLiteral value: TimeInterval) { self.init(value) }

      public init?<T: BinaryInteger>(exactly source: T) {
        guard let seconds = TimeInterval(exactly: source) else { return nil }
        self.init(seconds)
      }

      /// Creates a stride equal to `duration`.
      public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
      }

      /// This stride as a `Duration`, to the nearest nanosecond where it is that precise.
      public var duration: Duration { .seconds(timeInterval) }

      /// The interval in the largest whole unit that holds it: `1 s`, `300 ms`; otherwise in
      /// seconds.
      public var description: String {
        let nanoseconds = (timeInterval * 1e9).rounded()
        if abs(nanoseconds) < 9e18, abs(nanoseconds - timeInterval * 1e9) < 1e-3 {
          return describeNanoseconds(Int(nanoseconds))
        }
        return "\(timeInterval) s"
      }

      public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
      public static func seconds(_ s: Double) -> Stride { Stride(s) }
      public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1e3) }
      public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1e6) }
      public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1e9) }

      public static var zero: Stride { Stride(0) }

      public static func < (lhs: Stride, rhs: Stride) -> Bool {
        lhs.timeInterval < rhs.timeInterval
      }
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.timeInterval + rhs.timeInterval)
      }
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.timeInterval - rhs.timeInterval)
      }
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.timeInterval * rhs.timeInterval)
      }
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
      public static prefix func - (operand: Stride) -> Stride { Stride(-operand.timeInterval) }
    }
  }

#endif

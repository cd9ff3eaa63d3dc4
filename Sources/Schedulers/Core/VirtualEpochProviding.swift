import Dispatch
import Foundation

/// A scheduler time type with an instant where virtual clocks start: the ``TestScheduler``,
/// immediate and unimplemented schedulers of that time type begin there.
///
/// This requirement is the one thing a time type says about virtual time. The initializers
/// without a `now:`, and so a ``VirtualTimeHost``'s `.test`, `.immediate` and `.unimplemented`
/// schedulers, are built from it:
///
/// ```swift
/// let scheduler = TestSchedulerOf<DispatchQueue>()
/// scheduler.now == DispatchQueue.SchedulerTimeType.virtualEpoch  // true
/// ```
///
/// Conform a time type of your own to give it the same initializers.
///
/// It refines what every scheduler of the package asks of a time type (`Sendable`, with a
/// `Sendable` stride that converts from durations), so a host's time type that conforms can be
/// used with all of them.
public protocol VirtualEpochProviding: Strideable, Sendable
where Stride: SchedulerTimeIntervalConvertible & Sendable {
  /// The instant virtual clocks of this time type start at.
  static var virtualEpoch: Self { get }
}

extension DispatchQueue.SchedulerTimeType: VirtualEpochProviding {
  /// One nanosecond of uptime. Not zero: on Apple platforms
  /// `DispatchTime(uptimeNanoseconds: 0)` means "now".
  public static var virtualEpoch: Self { Self(DispatchTime(uptimeNanoseconds: 1)) }
}

// The date-based time types start at 1970-01-01, as in combine-schedulers. Where Combine is
// imported they are two types of Combine's; elsewhere, one generic type of this package.
#if canImport(Combine)
  extension RunLoop.SchedulerTimeType: VirtualEpochProviding {
    /// 1970-01-01, as in combine-schedulers.
    public static var virtualEpoch: Self { Self(Date(timeIntervalSince1970: 0)) }
  }

  extension OperationQueue.SchedulerTimeType: VirtualEpochProviding {
    /// 1970-01-01, as in combine-schedulers.
    public static var virtualEpoch: Self { Self(Date(timeIntervalSince1970: 0)) }
  }
#else
  extension DateSchedulerTimeType: VirtualEpochProviding {
    /// 1970-01-01, as in combine-schedulers.
    public static var virtualEpoch: Self { Self(Date(timeIntervalSince1970: 0)) }
  }
#endif

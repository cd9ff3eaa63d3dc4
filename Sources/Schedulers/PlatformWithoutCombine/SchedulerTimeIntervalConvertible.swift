// Where Combine can be imported, Combine's protocol is used instead, and
// PlatformWithCombine/SchedulerTimeIntervalConvertible+Duration.swift adds the conversions to `Duration`.
#if !canImport(Combine)

  /// A stride that can be written in seconds, milliseconds, microseconds or nanoseconds, and
  /// converted to and from Swift's `Duration`.
  ///
  /// Every scheduler's `SchedulerTimeType.Stride` conforms, so generic code can say how long to
  /// wait without knowing the scheduler:
  ///
  /// ```swift
  /// func retry<S: Scheduler>(on scheduler: S, _ work: @escaping @Sendable () -> Void) {
  ///   scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(250)), work)
  /// }
  /// ```
  ///
  /// Conversions stop with a precondition failure naming the problem when a value is not finite
  /// (`.seconds(.nan)`) or does not fit the stride's range; they never wrap around silently.
  public protocol SchedulerTimeIntervalConvertible {
    /// A stride of whole seconds.
    static func seconds(_ s: Int) -> Self
    /// A stride of seconds; fractions are kept down to the stride's resolution.
    static func seconds(_ s: Double) -> Self
    /// A stride of milliseconds.
    static func milliseconds(_ ms: Int) -> Self
    /// A stride of microseconds.
    static func microseconds(_ us: Int) -> Self
    /// A stride of nanoseconds.
    static func nanoseconds(_ ns: Int) -> Self
    /// Creates a stride equal to `duration`, rounded to the stride's resolution.
    init(_ duration: Duration)
    /// This stride as a `Duration`.
    var duration: Duration { get }
  }

  extension Duration {
    /// Creates a duration equal to a scheduler's stride.
    ///
    /// ```swift
    /// let timeout = Duration(DispatchQueue.SchedulerTimeType.Stride.seconds(2))  // .seconds(2)
    /// ```
    @inlinable
    public init<Stride: SchedulerTimeIntervalConvertible>(_ stride: Stride) {
      self = stride.duration
    }
  }

#endif

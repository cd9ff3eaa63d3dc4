// On both sides of the platform split: the protocol is the package's own without Combine and
// Combine's with it.

extension SchedulerTimeIntervalConvertible {
  /// A stride equal to `duration`.
  ///
  /// ```swift
  /// let stride: DispatchQueue.SchedulerTimeType.Stride = .duration(.milliseconds(300))
  /// ```
  @inlinable
  public static func duration(_ duration: Duration) -> Self { Self(duration) }
}

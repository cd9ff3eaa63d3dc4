/// How failure messages and descriptions write a stride: in its largest whole unit, `2 s`,
/// `300 ms`, `5 µs`, `7 ns`.
///
/// Read through `Duration`, so that every scheduler's stride reads the same: Combine's strides
/// have no description of their own (they print as `Stride(_nanoseconds: 2000000000)`).
/// A value that is not a scheduler stride is printed as it describes itself.
@usableFromInline
package func describeStride<T>(_ stride: T) -> String {
  func duration<S: SchedulerTimeIntervalConvertible & Comparable & SignedNumeric>(
    _ stride: S
  ) -> Duration {
    stride.duration
  }
  if let stride = stride as? any SchedulerTimeIntervalConvertible & Comparable & SignedNumeric {
    return describeDuration(duration(stride))
  }
  return "\(stride)"
}

/// A duration in its largest whole unit; beyond `Int` nanoseconds (292 years) in seconds,
/// "about" when a fraction is dropped; a duration of fractional nanoseconds as `Duration`
/// describes it.
package func describeDuration(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  guard let nanoseconds = Nanoseconds.checked(duration) else {
    return attoseconds == 0 ? "\(seconds) s" : "about \(seconds) s"
  }
  guard attoseconds % 1_000_000_000 == 0 else { return "\(duration)" }
  return describeNanoseconds(nanoseconds)
}

/// Nanoseconds in their largest whole unit.
package func describeNanoseconds(_ nanoseconds: Int) -> String {
  for (unit, name) in [(1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "µs")]
  where nanoseconds % unit == 0 {
    return "\(nanoseconds / unit) \(name)"
  }
  return "\(nanoseconds) ns"
}

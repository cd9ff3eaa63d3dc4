// Checked conversions to whole nanoseconds, shared by the strides of this module.
//
// Every failure names the value and the problem, because a silent wrap-around or a trap with
// the standard library's generic message ("Double value cannot be converted to Int") sends
// users hunting through their own arithmetic.

@usableFromInline
package enum Nanoseconds {
  @usableFromInline
  package static func multiply(_ value: Int, by unit: Int, _ unitName: StaticString) -> Int {
    let (result, overflow) = value.multipliedReportingOverflow(by: unit)
    precondition(
      !overflow,
      "\(value) \(unitName) does not fit in a stride of Int nanoseconds (about ±292 years)")
    return result
  }

  /// `lhs op rhs` for a stride's nanoseconds, stopping with both values and the operation
  /// when the result does not fit.
  @inlinable
  package static func checkedStrideArithmetic(
    _ lhs: Int, _ operation: StaticString, _ rhs: Int
  ) -> Int {
    let (result, overflow): (Int, Bool)
    switch operation.utf8Start.pointee {
    case UInt8(ascii: "+"): (result, overflow) = lhs.addingReportingOverflow(rhs)
    case UInt8(ascii: "-"): (result, overflow) = lhs.subtractingReportingOverflow(rhs)
    default: (result, overflow) = lhs.multipliedReportingOverflow(by: rhs)
    }
    if overflow { strideOverflow(lhs, operation, rhs) }
    return result
  }

  @usableFromInline
  static func strideOverflow(_ lhs: Int, _ operation: StaticString, _ rhs: Int) -> Never {
    let values =
      operation.utf8Start.pointee == UInt8(ascii: "*")
      ? "\(lhs) ns * \(rhs) ns"
      : "\(describeNanoseconds(lhs)) \(operation) \(describeNanoseconds(rhs))"
    preconditionFailure(
      "Stride arithmetic overflows: \(values) does not fit in a stride of Int nanoseconds (about ±292 years)"
    )
  }

  @usableFromInline
  package static func fromSeconds(_ seconds: Double) -> Int {
    precondition(seconds.isFinite, "A stride of \(seconds) seconds is not finite")
    let nanoseconds = (seconds * 1_000_000_000).rounded()
    // Int.max is not representable as a Double; its nearest Double is 2^63, which is out of range.
    precondition(
      nanoseconds >= -9_223_372_036_854_775_808.0 && nanoseconds < 9_223_372_036_854_775_808.0,
      "A stride of \(seconds) seconds does not fit in Int nanoseconds (about ±292 years)")
    return Int(nanoseconds)
  }

  /// Whole nanoseconds of `duration` (a fraction of a nanosecond dropped), or `nil` when they
  /// do not fit in `Int`: the one conversion the others are built on.
  @usableFromInline
  package static func checked(_ duration: Duration) -> Int? {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow1) = Int(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    let (total, overflow2) = whole.addingReportingOverflow(Int(attoseconds / 1_000_000_000))
    return overflow1 || overflow2 ? nil : total
  }

  @usableFromInline
  package static func fromDuration(_ duration: Duration) -> Int {
    guard let nanoseconds = checked(duration) else {
      preconditionFailure(
        "The duration \(duration) does not fit in Int nanoseconds (about ±292 years)")
    }
    return nanoseconds
  }

  /// Whole nanoseconds of `duration`, clamped to `Int`'s range: for real-time waits and
  /// timeouts, where "more than 292 years" means "forever" rather than a mistake.
  package static func saturating(_ duration: Duration) -> Int {
    checked(duration) ?? (duration < .zero ? .min : .max)
  }

  @usableFromInline
  package static func toDuration(_ nanoseconds: Int) -> Duration {
    .nanoseconds(nanoseconds)
  }
}

// Checked conversions to whole nanoseconds, shared by the strides of this module.
//
// Every failure names the value and the problem, because a silent wrap-around or a trap with
// the standard library's generic message ("Double value cannot be converted to Int") sends
// users hunting through their own arithmetic.

@usableFromInline
enum Nanoseconds {
  @usableFromInline
  static func multiply(_ value: Int, by unit: Int, _ unitName: StaticString) -> Int {
    let (result, overflow) = value.multipliedReportingOverflow(by: unit)
    precondition(
      !overflow,
      "\(value) \(unitName) does not fit in a stride of Int nanoseconds (about ±292 years)")
    return result
  }

  @usableFromInline
  static func fromSeconds(_ seconds: Double) -> Int {
    precondition(seconds.isFinite, "A stride of \(seconds) seconds is not finite")
    let nanoseconds = (seconds * 1_000_000_000).rounded()
    // Int.max is not representable as a Double; its nearest Double is 2^63, which is out of range.
    precondition(
      nanoseconds >= -9_223_372_036_854_775_808.0 && nanoseconds < 9_223_372_036_854_775_808.0,
      "A stride of \(seconds) seconds does not fit in Int nanoseconds (about ±292 years)")
    return Int(nanoseconds)
  }

  @usableFromInline
  static func fromDuration(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow1) = Int(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    let (total, overflow2) = whole.addingReportingOverflow(Int(attoseconds / 1_000_000_000))
    precondition(
      !overflow1 && !overflow2,
      "The duration \(duration) does not fit in Int nanoseconds (about ±292 years)")
    return total
  }

  @usableFromInline
  static func toDuration(_ nanoseconds: Int) -> Duration {
    .nanoseconds(nanoseconds)
  }
}

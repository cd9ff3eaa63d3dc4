import Dispatch
import Schedulers
import Testing

// The package's own dispatch time and stride; where Combine is imported, they are Combine's.
#if !canImport(Combine)

  @Suite("Dispatch time and stride")
  struct StrideTests {
    typealias Time = DispatchQueue.SchedulerTimeType
    typealias Stride = Time.Stride

    @Test func literalsAreSeconds() {
      #expect((1 as Stride).nanoseconds == 1_000_000_000)
      #expect((0.25 as Stride).nanoseconds == 250_000_000)
    }

    @Test func unitsConvert() {
      #expect(Stride.seconds(2).nanoseconds == 2_000_000_000)
      #expect(Stride.seconds(1.5).nanoseconds == 1_500_000_000)
      #expect(Stride.milliseconds(3).nanoseconds == 3_000_000)
      #expect(Stride.microseconds(3).nanoseconds == 3_000)
      #expect(Stride.nanoseconds(3).nanoseconds == 3)
      #expect(Stride(DispatchTimeInterval.milliseconds(7)).nanoseconds == 7_000_000)
      #expect(Stride(DispatchTimeInterval.never).nanoseconds == .max)
    }

    @Test(arguments: [
      Duration.zero, .nanoseconds(1), .milliseconds(300), .seconds(-5), .seconds(86_400),
    ])
    func durationsRoundTrip(duration: Duration) {
      #expect(Stride(duration).duration == duration)
      #expect(Duration(Stride(duration)) == duration)
      #expect(Stride.duration(duration) == Stride(duration))
    }

    @Test func arithmeticAndComparison() {
      let stride = Stride.seconds(2) - .milliseconds(500)
      #expect(stride == .milliseconds(1_500))
      #expect(-stride < .zero)
      #expect(Stride(exactly: 3) == .seconds(3))
      #expect(Stride(exactly: Int.max) == nil)
    }

    @Test func instantsMeasureSignedDistances() {
      let start = Time(uptimeNanoseconds: 1_000)
      let later = start.advanced(by: .nanoseconds(500))
      #expect(start.distance(to: later) == .nanoseconds(500))
      #expect(later.distance(to: start) == .nanoseconds(-500))
      #expect(later.dispatchTime.uptimeNanoseconds == 1_500)
    }

    @Test func instantArithmeticSaturatesInsteadOfOverflowing() {
      let end = Time(uptimeNanoseconds: .max)
      #expect(end.advanced(by: .seconds(1)) == end)
      #expect(Time(uptimeNanoseconds: 5).advanced(by: .seconds(-1)).uptimeNanoseconds == 0)
      #expect(Time(uptimeNanoseconds: 0).distance(to: end) == .nanoseconds(.max))
      #expect(end.distance(to: Time(uptimeNanoseconds: 0)) == .nanoseconds(.min))
    }
  }
#endif

import Dispatch
import Schedulers
import Testing

/// Spellings that must mean the same on Linux and on Apple platforms, where `Scheduler` is
/// Combine's (docs/apple-platforms.md lists the declarations each one rests on).
@Suite("Apple's shapes")
struct AppleShapeTests {
  /// Combine's `Scheduler` has one primary associated type, so this is how a scheduler of a
  /// time type is spelt there; the package's own protocol has the same one (it had two, and
  /// code spelt with both compiled on Linux only).
  @Test func someSchedulerOfATimeTypeIsSpeltWithOnePrimaryType() {
    func startOf(_ scheduler: some Scheduler<DispatchQueue.SchedulerTimeType>)
      -> DispatchQueue.SchedulerTimeType
    { scheduler.now }
    #expect(startOf(DispatchQueue.test) == DispatchQueue.virtualEpoch)
    #expect(startOf(DispatchQueue.test.eraseToAnyScheduler()) == DispatchQueue.virtualEpoch)
  }
}

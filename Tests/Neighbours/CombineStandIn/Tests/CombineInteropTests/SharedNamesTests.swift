import Combine
import Foundation
import Schedulers
import SchedulersTesting
import Testing

// Runs only in the build with the Combine stand-in (this package; .ci/run runs it):
// a file that imports Combine and the package, as every SwiftUI file of an app does, names
// each type both declare. It compiles only if each name means one thing: Combine's.

@Suite("Combine and Schedulers in one file")
struct SharedNamesTests {
  @Test func everySharedNameIsCombines() {
    var cancellables = Set<AnyCancellable>()
    let anyScheduler: any Scheduler = DispatchQueue.main
    let cancellable: any Cancellable = AnyCancellable {}
    let combineImmediate: ImmediateScheduler = ImmediateScheduler.shared
    let time: DispatchQueue.SchedulerTimeType = DispatchQueue.main.now
    let stride: DispatchQueue.SchedulerTimeType.Stride = .seconds(1)
    let options = DispatchQueue.SchedulerOptions(qos: .userInitiated)
    let runLoopTime: RunLoop.SchedulerTimeType = RunLoop.main.now
    let runLoopOptions: RunLoop.SchedulerOptions? = nil
    let operationQueueTime: OperationQueue.SchedulerTimeType = OperationQueue.main.now
    let operationQueueOptions: OperationQueue.SchedulerOptions? = nil
    func seconds<S: Scheduler>(on _: S) -> S.SchedulerTimeType.Stride
    where S.SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible { .seconds(1) }
    _ = (
      anyScheduler, cancellable, combineImmediate, time, stride, options, runLoopTime,
      runLoopOptions, operationQueueTime, operationQueueOptions
    )
    AnyCancellable {}.store(in: &cancellables)
    #expect(seconds(on: DispatchQueue.main) == .seconds(1))
    #expect(cancellables.count == 1)
    // The names are Combine's own, not look-alikes: Combine's operators accept them.
    #expect(type(of: combineImmediate) == Combine.ImmediateScheduler.self)
    #expect(type(of: cancellable as AnyObject) == Combine.AnyCancellable.self)
  }

  @Test func thePackagesSchedulersAreCombineSchedulers() {
    func isCombineScheduler<S: Combine.Scheduler>(_: S) -> Bool { true }
    #expect(isCombineScheduler(DispatchQueue.test))
    #expect(isCombineScheduler(DispatchQueue.immediate))
    #expect(isCombineScheduler(AnySchedulerOf<DispatchQueue>.main))
    #expect(isCombineScheduler(DispatchQueue.unimplemented("unused")))
    #expect(isCombineScheduler(RunLoop.test))
    #expect(isCombineScheduler(OperationQueue.test))
    #expect(isCombineScheduler(UIScheduler.shared))
    let generic: ImmediateSchedulerOf<DispatchQueue> = DispatchQueue.immediate
    #expect(generic.now == DispatchQueue.virtualEpoch)
  }

  /// The package's additions to the protocol reach each scheduler's own version through
  /// `some Scheduler`: a cancelled action leaves the test scheduler's queue at once.
  @Test func genericCodeReachesTheTestSchedulersOwnCancellation() {
    func scheduleAndCancel(on scheduler: some Scheduler) {
      scheduler.scheduleCancellable(
        after: scheduler.now, tolerance: scheduler.minimumTolerance, options: nil
      ) {}.cancel()
    }
    let scheduler = DispatchQueue.test
    scheduleAndCancel(on: scheduler)
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func combineStridesConvertToDurations() {
    #expect(
      Duration(DispatchQueue.SchedulerTimeType.Stride.milliseconds(300)) == .milliseconds(300))
    #expect(Duration(RunLoop.SchedulerTimeType.Stride.seconds(2)) == .seconds(2))
    #expect(DispatchQueue.SchedulerTimeType.Stride(.seconds(3)) == .seconds(3))
    // A stride of a type the package does not know is measured by comparisons.
    #expect(Duration(5 as Int) == .seconds(5))
    #expect(Duration(-2 as Int) == .seconds(-2))
  }
}

// Whole seconds as Int, with only the five constructors Combine's protocol asks for: its
// `duration` is the package's measurement by comparisons.
extension Int: @retroactive SchedulerTimeIntervalConvertible {
  public static func seconds(_ s: Int) -> Int { s }
  public static func seconds(_ s: Double) -> Int { Int(s) }
  public static func milliseconds(_ ms: Int) -> Int { ms / 1_000 }
  public static func microseconds(_ us: Int) -> Int { us / 1_000_000 }
  public static func nanoseconds(_ ns: Int) -> Int { ns / 1_000_000_000 }
}

/// A stride whose `seconds(Double)` is Apple's Dispatch stride's: `Int(seconds * 1e9)`, which
/// traps past 292 years. (OpenCombine's clamps, so the stand-in's own Dispatch stride cannot
/// show the trap.)
struct AppleLikeDispatchStride: SchedulerTimeIntervalConvertible {
  var nanoseconds: Int
  static func seconds(_ s: Int) -> Self { Self(nanoseconds: s * 1_000_000_000) }
  static func seconds(_ s: Double) -> Self { Self(nanoseconds: Int(s * 1_000_000_000)) }
  static func milliseconds(_ ms: Int) -> Self { Self(nanoseconds: ms * 1_000_000) }
  static func microseconds(_ us: Int) -> Self { Self(nanoseconds: us * 1_000) }
  static func nanoseconds(_ ns: Int) -> Self { Self(nanoseconds: ns) }
}

/// Durations past `Int.max` nanoseconds clamp before any stride arithmetic: the clock view,
/// tolerances and `withRetry` convert durations to strides, and going through
/// `.seconds(Double)` trapped on Apple platforms.
@Suite("Huge durations as Combine strides")
struct HugeDurationStrideTests {
  @Test func aDurationPastTheNanosecondRangeClampsToIt() {
    let huge = Duration.seconds(Int64.max)
    #expect(AppleLikeDispatchStride(huge).nanoseconds == Int.max)
    #expect(AppleLikeDispatchStride(.zero - huge).nanoseconds == Int.min)
    #expect(DispatchQueue.SchedulerTimeType.Stride(huge).magnitude == Int.max)
    #expect(AppleLikeDispatchStride(.seconds(2)).nanoseconds == 2_000_000_000)
  }
}

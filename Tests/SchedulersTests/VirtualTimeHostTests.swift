import Dispatch
import Foundation
import Schedulers
import SchedulersTesting
import Testing

/// A host type of the user's own: a scheduler that hands work to a dispatch queue, with a
/// dispatch queue's time. Conforming it to `VirtualTimeHost` is all it takes to get
/// `test(order:)`, `virtualEpoch` and `unimplemented(_:)`.
private struct LoggingQueueScheduler: Scheduler, VirtualTimeHost, Sendable {
  typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
  typealias SchedulerOptions = DispatchQueue.SchedulerOptions
  let queue: DispatchQueue

  var now: SchedulerTimeType { queue.now }
  var minimumTolerance: SchedulerTimeType.Stride { queue.minimumTolerance }

  func schedule(options: SchedulerOptions?, _ action: @escaping SchedulerAction) {
    queue.schedule(options: options, action)
  }

  func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping SchedulerAction
  ) {
    queue.schedule(after: date, tolerance: tolerance, options: options, action)
  }

  func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping SchedulerAction
  ) -> any Cancellable {
    queue.schedule(
      after: date, interval: interval, tolerance: tolerance, options: options, action)
  }
}

/// Each host's virtual schedulers come from one declaration: the time type's virtual epoch.
@Suite("Virtual time hosts")
struct VirtualTimeHostTests {
  @Test func everySpellingOfADispatchQueuesVirtualSchedulersStartsAtOneNanosecond() {
    let epoch = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1))
    #expect(DispatchQueue.SchedulerTimeType.virtualEpoch == epoch)
    #expect(DispatchQueue.virtualEpoch == epoch)
    #expect(DispatchQueue.test.now == epoch)
    #expect(DispatchQueue.test(order: .shuffled(seed: 1)).now == epoch)
    #expect(TestSchedulerOf<DispatchQueue>().now == epoch)
    #expect(DispatchQueue.immediate.now == epoch)
    #expect(ImmediateSchedulerOf<DispatchQueue>().now == epoch)
    #expect(AnySchedulerOf<DispatchQueue>.immediate.now == epoch)
  }

  @Test func everySpellingOfTheDateBasedHostsStartsIn1970() {
    let epoch = Date(timeIntervalSince1970: 0)
    #expect(RunLoop.virtualEpoch.date == epoch)
    #expect(OperationQueue.virtualEpoch.date == epoch)
    #expect(RunLoop.test.now.date == epoch)
    #expect(OperationQueue.test(order: .firstInFirstOut).now.date == epoch)
    #expect(TestSchedulerOf<OperationQueue>().now.date == epoch)
    #expect(ImmediateSchedulerOf<RunLoop>().now.date == epoch)
    #expect(AnySchedulerOf<RunLoop>.immediate.now.date == epoch)
    #expect(AnySchedulerOf<OperationQueue>.immediate.now.date == epoch)
  }

  @Test func theGenericTestSchedulerKeepsTheOrderItIsGiven() {
    let scheduler = TestSchedulerOf<RunLoop>(order: .shuffled(seed: 7))
    #expect(scheduler.order == .shuffled(seed: 7))
    #expect(TestSchedulerOf<RunLoop>().order == .firstInFirstOut)
  }

  @Test func aHostOfTheUsersOwnGetsTheSharedMembersByConforming() {
    let scheduler = LoggingQueueScheduler.test(order: .firstInFirstOut)
    #expect(scheduler.now == LoggingQueueScheduler.virtualEpoch)
    let ran = Recorder<String>()
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { ran.append("ran") }
    scheduler.advance(by: .milliseconds(999))
    #expect(ran.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(ran.values == ["ran"])
  }

  @Test func aHostOfTheUsersOwnGetsANamedUnimplementedSchedulerThatKnowsItsLine() {
    withKnownIssue {
      let scheduler = LoggingQueueScheduler.unimplemented("LoggingQueueScheduler")
      scheduler.schedule {}
    } matching: { issue in
      issue.description.contains("Unimplemented scheduler 'LoggingQueueScheduler'")
        && issue.description.contains("VirtualTimeHostTests.swift:")
    }
  }

  @Test func theGenericUnimplementedInitializerNamesItsCreationSite() {
    withKnownIssue {
      let scheduler = UnimplementedSchedulerOf<OperationQueue>("feed")
      #expect(scheduler.name == "feed")
      _ = scheduler.now
    } matching: { issue in
      issue.description.contains("Unimplemented scheduler 'feed'")
        && issue.description.contains("VirtualTimeHostTests.swift:")
    }
  }

  @Test func theErasedUnimplementedSchedulersOfEveryHostFail() {
    withKnownIssue {
      AnySchedulerOf<RunLoop>.unimplemented("run loop").schedule {}
    } matching: { issue in
      issue.description.contains("Unimplemented scheduler 'run loop'")
        && issue.description.contains("VirtualTimeHostTests.swift:")
    }
    withKnownIssue {
      AnySchedulerOf<OperationQueue>.unimplemented.schedule {}
    } matching: { issue in
      issue.description.contains("made with the .unimplemented property")
    }
  }
}

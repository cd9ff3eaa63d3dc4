import Combine
import Foundation
import Schedulers
import Testing

@Test func everySharedNameMeansCombines() {
  var set = Set<AnyCancellable>()
  let scheduler: any Scheduler = DispatchQueue.main
  let cancellable: any Cancellable = AnyCancellable {}
  let immediate = ImmediateScheduler.shared
  let time: DispatchQueue.SchedulerTimeType = DispatchQueue.main.now
  let stride: DispatchQueue.SchedulerTimeType.Stride = .seconds(1)
  let options = DispatchQueue.SchedulerOptions(qos: .userInitiated)
  let runLoopTime: RunLoop.SchedulerTimeType = RunLoop.main.now
  let operationQueueTime: OperationQueue.SchedulerTimeType = OperationQueue.main.now
  func generic<S: Scheduler>(_ s: S) -> S.SchedulerTimeType.Stride
  where S.SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible { .seconds(1) }
  _ = (scheduler, cancellable, immediate, time, stride, options, runLoopTime, operationQueueTime)
  AnyCancellable {}.store(in: &set)
  _ = generic(DispatchQueue.main)
}

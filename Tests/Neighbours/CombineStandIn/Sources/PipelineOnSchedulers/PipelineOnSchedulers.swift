// The Combine pipeline of the operator rows, on this package's `TestScheduler` (its Combine
// side, as Apple platforms build it). Only standard-library types cross the module boundary:
// `PipelineOnCombineSchedulers` runs the same code on combine-schedulers' `TestScheduler`, and
// the two packages' `DispatchQueue.test` must never meet in one file.

import Combine
import Dispatch
import Schedulers

/// Sends `size` elements 2 ms apart through debounce, throttle, delay and `receive(on:)`, all
/// on one test scheduler, advancing after each; returns how many reached the sink.
public func pipelineOnSchedulers(size: Int) -> Int {
  let scheduler = DispatchQueue.test
  let subject = PassthroughSubject<Int, Never>()
  var received = 0
  let cancellable =
    subject
    .debounce(for: .milliseconds(1), scheduler: scheduler)
    .throttle(for: .milliseconds(1), scheduler: scheduler, latest: true)
    .delay(for: .milliseconds(1), scheduler: scheduler)
    .receive(on: scheduler)
    .sink { _ in received += 1 }
  for element in 0..<size {
    subject.send(element)
    scheduler.advance(by: .milliseconds(2))
  }
  scheduler.run()
  cancellable.cancel()
  return received
}

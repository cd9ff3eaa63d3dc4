// The same Combine pipeline as `PipelineOnSchedulers`, word for word, on combine-schedulers
// 1.2.2's `TestScheduler`.

import CombineSchedulers
import Dispatch
import OpenCombine
import OpenCombineDispatch

/// Sends `size` elements 2 ms apart through debounce, throttle, delay and `receive(on:)`, all
/// on one test scheduler, advancing after each; returns how many reached the sink.
public func pipelineOnCombineSchedulers(size: Int) -> Int {
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

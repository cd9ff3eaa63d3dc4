// combine-pipeline-bench: one Combine pipeline (debounce, throttle, delay, receive(on:)) driven
// by this package's TestScheduler and by combine-schedulers 1.2.2's, through the Combine
// stand-in (OpenCombine 0.14.0 as `Combine`), in one process.
//
//   swift run -c release --package-path Tests/Neighbours/CombineStandIn combine-pipeline-bench \
//     [--sizes 1000,10000] [--repetitions 5]
//
// It lives beside the stand-in, not in Benchmarks/, because this package's Combine side builds
// on Linux only here, where a module named `Combine` exists.

import Dispatch
import Foundation
import PipelineOnCombineSchedulers
import PipelineOnSchedulers

var sizes = [1_000, 10_000]
var repetitions = 5
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--sizes":
    sizes = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
  case "--repetitions":
    repetitions = Int(arguments.popFirst() ?? "") ?? repetitions
  default:
    print("USAGE: combine-pipeline-bench [--sizes N,N,...] [--repetitions N]")
    exit(2)
  }
}

/// The median nanoseconds per element over `repetitions` runs after a warm-up, and the count.
func measure(_ run: (Int) -> Int, size: Int, repetitions: Int) -> (median: Double, received: Int) {
  var received = run(size)
  var figures: [Double] = []
  for _ in 0..<repetitions {
    let start = DispatchTime.now().uptimeNanoseconds
    received = run(size)
    figures.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(size))
  }
  return (figures.sorted()[figures.count / 2], received)
}

print("pipeline: debounce, throttle (latest), delay, receive(on:), 1 ms each, elements 2 ms apart")
print(
  ["n", "this package ns/element", "combine-schedulers ns/element", "theirs ÷ ours", "received"]
    .joined(separator: "\t"))
for size in sizes {
  let ours = measure(pipelineOnSchedulers, size: size, repetitions: repetitions)
  let theirs = measure(pipelineOnCombineSchedulers, size: size, repetitions: repetitions)
  guard ours.received == theirs.received else {
    print("the two pipelines disagree: \(ours.received) against \(theirs.received) received")
    exit(1)
  }
  let columns = [
    String(size), String(Int(ours.median)), String(Int(theirs.median)),
    String(Double(Int(theirs.median / ours.median * 100)) / 100) + "x", String(ours.received),
  ]
  print(columns.joined(separator: "\t"))
}

// How exact a plain `Task.sleep` is on a deterministic run's virtual clock: the runtime hands
// the run a deadline read from a real clock, and the run recovers the delay from it (see
// `Heuristics/PlainSleepWindow.swift`). Each repetition is one auto-advancing run in which
// four tasks in turn sleep plain `Task.sleep`s of several lengths: the body, a main-actor task
// (its jobs run on the main thread), a task the body started, and a task on an actor with an
// executor of its own (its jobs run on a dispatch queue, outside the run's threads). Each sleep
// is checked against the run's virtual clock (`DeterministicExecution.elapsed`): it must have
// moved by exactly the length asked for. Counted first on an idle machine, then with every
// core kept busy by another process.
//
//   swift run -c release --package-path Benchmarks sleep-bench [--repetitions N] [--no-load]
//     [--only-load]

import BenchmarkLoad
import Dispatch
import Foundation
import SchedulersDeterministic

var repetitions = 10_000
var loads = ["idle", "loaded"]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--repetitions":
    guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
      FileHandle.standardError.write(Data("--repetitions needs a count above zero\n".utf8))
      exit(2)
    }
    repetitions = value
  case "--no-load": loads = ["idle"]
  case "--only-load": loads = ["loaded"]
  default:
    FileHandle.standardError.write(
      Data("usage: sleep-bench [--repetitions N] [--no-load] [--only-load]\n".utf8))
    exit(2)
  }
}

/// The lengths each task sleeps, one after another: those of the flaky stories (a 2 s sleep,
/// a 160 ms one, the Blabber countdown's seconds), and two more.
let lengths: [Duration] = [
  .seconds(1), .seconds(2), .milliseconds(160), .milliseconds(250), .milliseconds(1),
]
/// The body, a main-actor task, a child task and a task on a queue-bound actor.
let sleepersPerRun = 4

/// The inexact sleeps of a run: each as the sleeper, the length asked for and the virtual time
/// it took.
typealias Inexact = [(sleeper: String, asked: Duration, took: Duration)]

/// Sleeps each length on the run's virtual clock, returning those that did not take exactly
/// their length.
func sleepEachLength(
  _ sleeper: String, isolation: isolated (any Actor)? = #isolation
) async -> Inexact {
  var inexact: Inexact = []
  for length in lengths {
    let before = DeterministicExecution.elapsed ?? .zero
    try? await Task.sleep(for: length)
    let took = (DeterministicExecution.elapsed ?? .zero) - before
    if took != length { inexact.append((sleeper, length, took)) }
  }
  return inexact
}

/// A serial executor on a dispatch queue, as apps write for actors bound to a queue.
final class DispatchQueueExecutor: SerialExecutor {
  let queue = DispatchQueue(label: "queue-bound-sleeper")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }
}

/// An actor whose jobs run on a dispatch queue of its own.
actor QueueBoundSleeper {
  let executor = DispatchQueueExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
  func sleepEachLengthOnItsQueue() async -> Inexact {
    await sleepEachLength("the queue-bound actor")
  }
}

/// One run, each of its sleepers in turn; `nil` when the run failed.
func oneRun() async -> Inexact? {
  try? await withDeterministicExecution(virtualTime: .autoAdvance) {
    var inexact = await sleepEachLength("the body")
    inexact += await Task { @MainActor in await sleepEachLength("the main-actor task") }.value
    inexact += await Task { await sleepEachLength("the child task") }.value
    inexact += await QueueBoundSleeper().sleepEachLengthOnItsQueue()
    return inexact
  }
}

/// "the body: 2,000,000 µs took 1,999,950 µs", the way the list of inexact sleeps shows one.
func describe(_ sleep: (sleeper: String, asked: Duration, took: Duration)) -> String {
  func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    var digits = String(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    var grouped = ""
    while digits.count > 3 {
      grouped = "," + digits.suffix(3) + grouped
      digits.removeLast(3)
    }
    return digits + grouped + " µs"
  }
  return "\(sleep.sleeper): \(format(sleep.asked)) took \(format(sleep.took))"
}

print("| machine | runs | sleeps | inexact sleeps | runs with one | failed runs | seconds |")
print("| --- | --- | --- | --- | --- | --- | --- |")
var seen: [(load: String, lines: [String])] = []
for load in loads {
  let spinners = load == "loaded" ? startLoad() : []
  _ = await oneRun()  // uncounted: the first run installs the routing
  var inexactSleeps = 0
  var runsWithOne = 0
  var failed = 0
  var kinds: [String: Int] = [:]
  let elapsed = await ContinuousClock().measure {
    for _ in 0..<repetitions {
      guard let inexact = await oneRun() else {
        failed += 1
        continue
      }
      if !inexact.isEmpty { runsWithOne += 1 }
      inexactSleeps += inexact.count
      for sleep in inexact { kinds[describe(sleep), default: 0] += 1 }
    }
  }
  stopLoad(spinners)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  let sleeps = repetitions * sleepersPerRun * lengths.count
  print(
    "| \(load) | \(repetitions) | \(sleeps) | \(inexactSleeps) | \(runsWithOne) | \(failed) "
      + "| \(String(format: "%.1f", seconds)) |")
  seen.append((load, kinds.sorted { $0.value > $1.value }.map { "\($0.key) (\($0.value)x)" }))
}
for (load, lines) in seen where !lines.isEmpty {
  print("\nInexact sleeps, \(load):")
  for line in lines { print("- \(line)") }
}

// schedule-bench: the schedule throughput of each scheduler in the package.
//
//   swift run -c release schedule-bench [--full] [--json] [--sizes N,N,...] [--repetitions N]

import Foundation
import ScheduleBenchWorkloads

struct Options {
  var json = false
  /// Quick by default (every workload once, at 10k actions: under a minute on two cores);
  /// `--full` measures the sizes and repetitions that docs/performance.md reports.
  var sizes = [10_000]
  var repetitions = 3
  var workloads: [String]?
}

let nameWidth = Workload.all.map(\.name.count).max()! + 2

let usage = """
  USAGE: schedule-bench [--full] [--json] [--sizes N,N,...] [--repetitions N] [--only NAME,...]

  Measures how fast each scheduler of swift-schedulers schedules and runs actions: n actions
  per workload, one warm-up, then N timed repetitions; prints the median and minimum
  nanoseconds per action and the median actions per second. Every repetition checks that all
  n actions ran. Progress goes to standard error.

  OPTIONS:
    --full             The full measurement: sizes 10000,100000,1000000, 5 repetitions
                       (several minutes; what docs/performance.md reports).
    --json             Print the results as JSON instead of a table.
    --sizes N,N,...    Action counts to measure (default: 10000).
    --repetitions N    Timed repetitions per workload and size (default: 3).
    --only NAME,...    Only these workloads (\(Workload.all.map(\.name).joined(separator: ", "))).
    -h, --help         Show this help.

  WORKLOADS:
  \(Workload.all.map { "  \($0.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))
  """

func parse(_ arguments: [String]) -> Options {
  var options = Options()
  var remaining = arguments[...]
  func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("schedule-bench: \(message)\n\n\(usage)\n".utf8))
    exit(2)
  }
  func integers(_ text: String?) -> [Int] {
    guard let text else { fail("missing value") }
    let values = text.split(separator: ",").compactMap { Int($0) }
    guard !values.isEmpty, values.allSatisfy({ $0 > 0 }) else {
      fail("expected positive integers, got '\(text)'")
    }
    return values
  }
  while let argument = remaining.popFirst() {
    switch argument {
    case "--full":
      options.sizes = [10_000, 100_000, 1_000_000]
      options.repetitions = 5
    case "--json": options.json = true
    case "--sizes": options.sizes = integers(remaining.popFirst())
    case "--repetitions": options.repetitions = integers(remaining.popFirst())[0]
    case "--only":
      let names = (remaining.popFirst() ?? "").split(separator: ",").map(String.init)
      let unknown = names.filter { name in !Workload.all.contains { $0.name == name } }
      guard unknown.isEmpty, !names.isEmpty else {
        fail("unknown workload '\(unknown.joined(separator: ","))'")
      }
      options.workloads = names
    case "-h", "--help":
      print(usage)
      exit(0)
    default: fail("unknown argument '\(argument)'")
    }
  }
  return options
}

/// Measures an async workload from this synchronous `main`: `main` stays synchronous (no
/// top-level `await`) so that valgrind can profile the synchronous workloads.
func measureOnATask(_ workload: Workload, size: Int, repetitions: Int) throws -> BenchmarkResult {
  let outcome = Outcome()
  let done = DispatchSemaphore(value: 0)
  Task {
    do {
      outcome.result = .success(try await measure(workload, size: size, repetitions: repetitions))
    } catch {
      outcome.result = .failure(error)
    }
    done.signal()
  }
  done.wait()
  return try outcome.result!.get()
}

/// A result handed from a task to the waiting `main` (the semaphore orders the accesses).
final class Outcome: @unchecked Sendable {
  var result: Result<BenchmarkResult, any Error>?
}

let options = parse(Array(CommandLine.arguments.dropFirst()))
let workloads = Workload.all.filter { options.workloads?.contains($0.name) ?? true }

/// Measures and prints every selected workload.
func measureAndPrint() throws {
  var results: [BenchmarkResult] = []
  let runs = workloads.flatMap { workload in
    options.sizes.filter { $0 <= workload.largestSize }.map { (workload, $0) }
  }
  let total = runs.count
  for (index, (workload, size)) in runs.enumerated() {
    FileHandle.standardError.write(
      Data("[\(index + 1)/\(total)] \(workload.name) n=\(grouped(size))\u{1B}[K\r".utf8))
    do {
      if workload.runSynchronously != nil {
        results.append(
          try measureSynchronously(workload, size: size, repetitions: options.repetitions))
      } else {
        results.append(try measureOnATask(workload, size: size, repetitions: options.repetitions))
      }
    } catch {
      FileHandle.standardError.write(Data("\nschedule-bench: \(error)\n".utf8))
      exit(1)
    }
  }
  FileHandle.standardError.write(Data("\u{1B}[K".utf8))

  let measured = results
  func reference(for size: Int) -> BenchmarkResult? {
    measured.first { $0.workload == Workload.referenceHeap.name && $0.size == size }
  }

  if options.json {
    let rows = results.map { result -> [String: Any] in
      var row: [String: Any] = [
        "workload": result.workload, "n": result.size,
        "median_ns_per_action": result.median, "min_ns_per_action": result.minimum,
        "median_actions_per_second": result.actionsPerSecond,
        "repetitions": result.nanosecondsPerAction,
      ]
      if let reference = reference(for: result.size) {
        row["vs_reference_heap"] = result.median / reference.median
      }
      return row
    }
    let data = try JSONSerialization.data(
      withJSONObject: ["repetitions": options.repetitions, "results": rows],
      options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: data, as: UTF8.self))
  } else {
    let header = [
      "workload", "n", "actions/s", "ns/action (median)", "ns/action (min)", "vs reference heap",
    ]
    let rows = results.map { result -> [String] in
      [
        result.workload, grouped(result.size), grouped(Int(result.actionsPerSecond)),
        format(result.median), format(result.minimum),
        reference(for: result.size).map { format(result.median / $0.median, decimals: 2) + "x" }
          ?? "-",
      ]
    }
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { column, cell in
        column == 0
          ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
          : String(repeating: " ", count: widths[column] - cell.count) + cell
      }.joined(separator: "  ")
    }
    print(line(header))
    print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
    for row in rows { print(line(row)) }
    print(
      "\n\(options.repetitions) timed repetitions after one warm-up; every repetition ran all n actions."
    )
  }
}

if workloads.contains(where: \.needsMainQueue) {
  // Measured off the main thread, which serves the main queue meanwhile, as an app's does:
  // main-actor jobs run there. (Only then: valgrind cannot follow `dispatchMain`.)
  Thread.detachNewThread {
    do { try measureAndPrint() } catch {
      FileHandle.standardError.write(Data("schedule-bench: \(error)\n".utf8))
      exit(1)
    }
    exit(0)
  }
  dispatchMain()
} else {
  try measureAndPrint()
}

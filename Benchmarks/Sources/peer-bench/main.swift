// peer-bench: swift-schedulers beside the peers users would otherwise pick.
//
//   swift run -c release --package-path Benchmarks peer-bench [--json] [--sizes ...] [--repetitions N]

import CombineSchedulersWorkloads
import Foundation
import HeapStatistics
import ScheduleBenchWorkloads

struct Options {
  var json = false
  var sizes = [1_000, 10_000, 100_000, 1_000_000]
  /// Peers run at most at this size (the issue's sizes); this package goes on to 1M.
  var largestPeerSize = 100_000
  var repetitions = 5
  var only: [String]?
  var memory = true
  /// Where to write the chart, if anywhere.
  var svg: String?
  /// Tests per way and machine state in the story table; 0 skips it.
  var storyRepetitions = 1_000
  /// Whether the stories are also run with both cores kept busy.
  var storiesUnderLoad = true
  /// Whether to build and run the Combine pipeline row's program beside the stand-in.
  var combinePipeline = true
}

let usage = """
  USAGE: peer-bench [--json] [--sizes N,N,...] [--repetitions N] [--only NAME,...] [--no-memory]
                    [--svg PATH] [--story-repetitions N] [--no-load]

  Runs each workload with swift-schedulers and with the peers (combine-schedulers 1.2.2,
  swift-clocks 1.1.1, OpenCombine 0.14.0) in the same process, and prints one table: each
  figure is the median (and minimum) nanoseconds per action over N timed repetitions after a
  warm-up, and every repetition checks that all actions ran. A peer whose run would take more
  than a minute at a size (extrapolated quadratically from the size before) is skipped with a
  note. Then the memory of pending work, in bytes per pending action.

  First, the four stories: one test each of the same production code (a debounced search, a
  countdown, a view state with loading and cancel) run the way each package tests it, and a
  to-do list with no time in it, under a deterministic run beside a plain async test; N times
  each, timed per test (median and p99) and counted (how many runs saw the right outcome), on
  an idle machine and with every core kept busy by another process.

  OPTIONS:
    --json             Print the results as JSON instead of tables.
    --sizes N,N,...    Sizes (default: 1000,10000,100000,1000000; peers stop at 100000).
    --repetitions N    Timed repetitions (default: 5).
    --only NAME,...    Only these comparisons (\(comparisons.map(\.name).joined(separator: ", "))).
    --no-memory        Skip the memory measurement.
    --svg PATH         Also write a chart: ns per action against n, log-log, one panel per
                       comparison (docs/performance-chart.svg is made with this).
    --story-repetitions N
                       Tests per way of testing a story, idle and loaded (default: 1000;
                       0 skips the stories).
    --no-load          Run the stories on the idle machine only.
    --no-combine-pipeline
                       Skip the Combine pipeline row, which builds and runs
                       combine-pipeline-bench in Tests/Neighbours/CombineStandIn (the only
                       place Combine exists on Linux; the first build takes minutes).
    -h, --help         Show this help.
  """

func parse(_ arguments: [String]) -> Options {
  var options = Options()
  var remaining = arguments[...]
  func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("peer-bench: \(message)\n\n\(usage)\n".utf8))
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
    case "--json": options.json = true
    case "--sizes": options.sizes = integers(remaining.popFirst())
    case "--repetitions": options.repetitions = integers(remaining.popFirst())[0]
    case "--no-memory": options.memory = false
    case "--story-repetitions":
      guard let text = remaining.popFirst(), let count = Int(text), count >= 0 else {
        fail("--story-repetitions needs a count of zero or more")
      }
      options.storyRepetitions = count
    case "--no-load": options.storiesUnderLoad = false
    case "--no-combine-pipeline": options.combinePipeline = false
    case "--svg":
      guard let path = remaining.popFirst() else { fail("--svg needs a path") }
      options.svg = path
    case "--only":
      let names = (remaining.popFirst() ?? "").split(separator: ",").map(String.init)
      let unknown = names.filter { name in !comparisons.contains { $0.name == name } }
      guard unknown.isEmpty, !names.isEmpty else {
        fail("unknown comparison '\(unknown.joined(separator: ","))'")
      }
      options.only = names
    case "-h", "--help":
      print(usage)
      exit(0)
    default: fail("unknown argument '\(argument)'")
    }
  }
  return options
}

/// One line of the table: our figure and, unless skipped, one rival's.
struct Row {
  let comparison: String
  let size: Int
  let ours: BenchmarkResult
  let rival: String?
  let theirs: BenchmarkResult?
  let skipped: String?
  let target: Target?

  var ratio: Double? { theirs.map { $0.median / ours.median } }
  var targetMet: Bool? {
    guard let target, target.applies(to: size), let ratio else { return nil }
    return ratio >= target.minimumRatio
  }
}

func progress(_ text: String) {
  FileHandle.standardError.write(Data("\(text)\u{1B}[K\r".utf8))
}

/// Seconds one run takes, from a result.
func secondsPerRun(_ result: BenchmarkResult) -> Double {
  result.median * Double(result.size) / 1e9
}

let options = parse(Array(CommandLine.arguments.dropFirst()))
let selected = comparisons.filter { options.only?.contains($0.name) ?? true }
let storyResults =
  options.storyRepetitions > 0
  ? await runStories(repetitions: options.storyRepetitions, loaded: options.storiesUnderLoad) : []
var rows: [Row] = []
var ourResults: [String: [Int: BenchmarkResult]] = [:]

for comparison in selected {
  /// The run times of each peer so far, to predict the next size.
  var history: [String: [(size: Int, seconds: Double)]] = [:]
  for size in options.sizes where size <= comparison.ours.largestSize {
    progress("\(comparison.name) n=\(size): swift-schedulers")
    let ours = try await measure(comparison.ours, size: size, repetitions: options.repetitions)
    ourResults[comparison.name, default: [:]][size] = ours
    var measuredAny = false
    for rival in comparison.rivals where size <= rival.workload.largestSize {
      if rival.isPeer && size > options.largestPeerSize { continue }
      var warmUp = 1
      var repetitions = options.repetitions
      if rival.isPeer, let last = history[rival.label]?.last {
        // Extrapolate from the growth measured between the last two sizes, or quadratically
        // (the worst the peers do) from a single one.
        var exponent = 2.0
        if let runs = history[rival.label], runs.count >= 2 {
          let previous = runs[runs.count - 2]
          exponent = min(
            max(
              log(last.seconds / previous.seconds) / log(Double(last.size) / Double(previous.size)),
              1), 2)
        }
        var predicted = last.seconds * pow(Double(size) / Double(last.size), exponent)
        if predicted > 60, history[rival.label]?.count == 1, 2 * last.size < size,
          last.seconds * 4 <= 20
        {
          // One size only, and quadratic extrapolation says skip: measure the growth with one
          // run at twice the last size before deciding.
          progress("\(comparison.name) n=\(2 * last.size): \(rival.label) (probe)")
          let probe = try await measure(
            rival.workload, size: 2 * last.size, repetitions: 1, warmUp: 0)
          history[rival.label, default: []].append((probe.size, secondsPerRun(probe)))
          exponent = min(max(log2(secondsPerRun(probe) / last.seconds), 1), 2)
          predicted = secondsPerRun(probe) * pow(Double(size) / Double(2 * last.size), exponent)
        }
        if predicted > 60 {
          let minutes = predicted / 60
          let note =
            minutes >= 120
            ? "skipped: one run would take about \(Int(minutes / 60)) hours"
            : "skipped: one run would take about \(Int(minutes.rounded())) min"
          rows.append(
            Row(
              comparison: comparison.name, size: size, ours: ours, rival: rival.label,
              theirs: nil,
              skipped: "\(note) (n^\(format(exponent, decimals: 1)) from n=\(last.size))",
              target: rival.target))
          measuredAny = true
          continue
        }
        if predicted > 5 { (warmUp, repetitions) = (0, 1) }
      }
      progress("\(comparison.name) n=\(size): \(rival.label)")
      let theirs = try await measure(
        rival.workload, size: size, repetitions: repetitions, warmUp: warmUp)
      history[rival.label, default: []].append((size, secondsPerRun(theirs)))
      rows.append(
        Row(
          comparison: comparison.name, size: size, ours: ours, rival: rival.label,
          theirs: theirs, skipped: nil, target: rival.target))
      measuredAny = true
    }
    if !measuredAny {
      rows.append(
        Row(
          comparison: comparison.name, size: size, ours: ours, rival: nil, theirs: nil,
          skipped: nil, target: nil))
    }
  }
}
progress("")

if let path = options.svg {
  let caption =
    "Median of \(options.repetitions) timed repetitions; written by `swift run -c release "
    + "--package-path Benchmarks peer-bench --svg \(path)` (sizes \(options.sizes.map(grouped).joined(separator: ", ")))."
  let chart = svgChart(
    chartPanels(rows: rows, comparisons: selected), stories: storyResults, caption: caption)
  try chart.write(toFile: path, atomically: true, encoding: .utf8)
}

/// The random workload's growth from 10k to 1M, against the O(log n) bound (log 1M / log 10k).
let growth: Double? = {
  guard let random = ourResults["random"], let small = random[10_000], let large = random[1_000_000]
  else { return nil }
  return large.median / small.median
}()
let growthBound = log(1e6) / log(1e4)

/// Bytes per pending empty action, read from the allocator around scheduling `size` of them.
func bytesPerPendingAction(size: Int, _ schedule: (Int) -> AnyObject) -> Double? {
  let before = heap_bytes_in_use()
  guard before > 0 else { return nil }
  let pending = schedule(size)
  let after = heap_bytes_in_use()
  withExtendedLifetime(pending) {}
  return (Double(after) - Double(before)) / Double(size)
}

var memory: [(label: String, size: Int, bytes: Double)] = []
if options.memory {
  let size = 1_000_000
  progress("memory n=\(size)")
  let candidates: [(String, (Int) -> AnyObject)] = [
    ("swift-schedulers TestScheduler", { Workload.pendingOnTestScheduler(size: $0).owner }),
    ("reference locked heap", { Workload.pendingOnReferenceHeap(size: $0).owner }),
    (
      "\(combine) TestScheduler",
      { CombineSchedulersWorkloads.pending(offsets: Workload.randomOffsets(count: $0)) }
    ),
  ]
  for (label, schedule) in candidates {
    if let bytes = bytesPerPendingAction(size: size, schedule) {
      memory.append((label, size, bytes))
    }
  }
  progress("")
}

func ratioText(_ ratio: Double) -> String {
  ratio >= 100 ? "\(grouped(Int(ratio.rounded())))x" : "\(format(ratio, decimals: 2))x"
}

if options.json {
  let jsonRows = rows.map { row -> [String: Any] in
    var object: [String: Any] = [
      "comparison": row.comparison, "n": row.size,
      "ours_median_ns_per_action": row.ours.median, "ours_min_ns_per_action": row.ours.minimum,
    ]
    if let rival = row.rival { object["rival"] = rival }
    if let theirs = row.theirs {
      object["theirs_median_ns_per_action"] = theirs.median
      object["theirs_min_ns_per_action"] = theirs.minimum
      object["theirs_repetitions"] = theirs.nanosecondsPerAction.count
    }
    if let ratio = row.ratio { object["theirs_over_ours"] = ratio }
    if let skipped = row.skipped { object["skipped"] = skipped }
    if let target = row.target, target.applies(to: row.size) {
      object["target"] = target.wording
      if let met = row.targetMet { object["target_met"] = met }
    }
    return object
  }
  var document: [String: Any] = ["repetitions": options.repetitions, "results": jsonRows]
  if let growth {
    document["random_growth_10k_to_1m"] = growth
    document["random_growth_bound"] = growthBound
  }
  document["stories"] = storyResults.map {
    [
      "story": $0.story, "way": $0.way, "machine": $0.load,
      "median_us_per_test": microsecondsValue($0.median),
      "p99_us_per_test": microsecondsValue($0.p99),
      "passed": $0.passed, "runs": $0.times.count,
    ] as [String: Any]
  }
  document["memory_bytes_per_pending_action"] = memory.map {
    ["implementation": $0.label, "n": $0.size, "bytes": $0.bytes] as [String: Any]
  }
  let data = try JSONSerialization.data(
    withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
  print(String(decoding: data, as: UTF8.self))
} else {
  if !storyResults.isEmpty {
    print(storyTable(storyResults))
    print(
      "\nWall time per test (one test = the whole story) over \(options.storyRepetitions) runs after one untimed run; \"passed\": runs whose checks all held. \"loaded\": every core kept busy by another process.\n"
    )
  }
  func table(_ header: [String], _ body: [[String]], leftAligned: Set<Int>) {
    let widths = header.indices.map { column in
      ([header] + body).map { $0[column].count }.max()!
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { column, cell in
        let pad = String(repeating: " ", count: widths[column] - cell.count)
        return leftAligned.contains(column) ? cell + pad : pad + cell
      }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }
    print(line(header))
    print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
    for cells in body { print(line(cells)) }
  }
  table(
    [
      "comparison", "n", "ours ns/action", "compared with", "theirs ns/action", "theirs ÷ ours",
      "target", "note",
    ],
    rows.map { row in
      let target: String = {
        guard let target = row.target, target.applies(to: row.size) else { return "" }
        guard let met = row.targetMet else { return target.wording }
        return "\(target.wording): \(met ? "met" : "MISSED")"
      }()
      return [
        row.comparison, grouped(row.size),
        "\(format(row.ours.median)) (\(format(row.ours.minimum)))",
        row.rival ?? "-",
        row.theirs.map { "\(format($0.median)) (\(format($0.minimum)))" } ?? "-",
        row.ratio.map(ratioText) ?? "",
        target,
        row.skipped
          ?? (row.theirs.map { $0.nanosecondsPerAction.count == 1 ? "one run" : "" } ?? ""),
      ]
    }, leftAligned: [0, 3, 6, 7])
  print(
    """

    ns/action: median (minimum) of \(options.repetitions) timed repetitions after a warm-up; \
    a peer predicted to need more than 5 s per run is measured once, without warm-up.
    """)
  if let growth {
    print(
      """
      random, 10k to 1M: ns/action grew \(format(growth, decimals: 2))x; the O(log n) bound \
      is \(format(growthBound, decimals: 2))x (\(growth <= growthBound ? "met" : "MISSED")).
      """)
  }
  if !memory.isEmpty {
    print()
    table(
      ["memory", "n", "bytes per pending action", "target"],
      memory.map { entry in
        let target =
          entry.label.hasPrefix("swift-schedulers")
          ? "≤ 100: \(entry.bytes <= 100 ? "met" : "MISSED")" : ""
        return [entry.label, grouped(entry.size), format(entry.bytes), target]
      }, leftAligned: [0, 3])
    print("\nEmpty actions (no captures), read from the allocator before and after scheduling.")
  }
}

if options.combinePipeline && !options.json {
  // The stand-in package lies two levels above this file's package: <root>/Tests/Neighbours/...
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let standIn = root.appendingPathComponent("Tests/Neighbours/CombineStandIn").path
  print("\nThe Combine pipeline on each package's TestScheduler (combine-pipeline-bench):")
  progress("building combine-pipeline-bench beside the Combine stand-in")
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [
    "swift", "run", "-c", "release", "--package-path", standIn, "combine-pipeline-bench",
    "--sizes", "1000,10000", "--repetitions", String(options.repetitions),
  ]
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  do {
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    progress("")
    print(String(decoding: data, as: UTF8.self), terminator: "")
    if process.terminationStatus != 0 { print("(it exited with \(process.terminationStatus))") }
  } catch {
    print("could not run it: \(error)")
  }
}

// A test suite's wall time: many short deterministic tests in one process, started the way
// Swift Testing runs a parallel suite (every test a child task of one task group, no limit on
// the width but the cooperative pool's). The tests are the stories' tests, in turn: each with
// its main-actor model and body, and each with its model on an actor of its own and a body
// that is not main-actor code (such a run needs the main queue least). Rows:
//
// - this package: its runs take turns, one at a time;
// - combine-schedulers' `TestScheduler` with the whole suite inside one
//   `withMainSerialExecutor`, where a suite of such tests ends up: the function sets a
//   process-wide hook, so one wrapper around the parallel suite is what every test's own
//   wrapper amounts to (and wrappers per test, restoring the hook as each test ends, would
//   race with each other).
//
// Each suite runs in a child process of its own (this executable again, with `--row`), so that
// neither inherits the other's routing; the environment (`SCHEDULERS_DETERMINISTIC_BACKEND`,
// ...) passes through to the child.
// The parent runs the rows in turn, `--repetitions` times, and prints the medians. Idle
// machine only: on 2 cores the suite itself already keeps every core busy.
//
//   swift run -c release --package-path Benchmarks suite-bench [--tests N] [--repetitions N]
//     [--bodies mixed|main-actor|off-main-actor]

import CombineSchedulersWorkloads
import ConcurrencyExtras
import Foundation
import SchedulersStories

/// One way of running the suite, and its child process's `--row` argument.
enum Row: String, CaseIterable {
  case takingTurns = "take-turns"
  case mainSerialExecutor = "main-serial-executor"

  var label: String {
    switch self {
    case .takingTurns: "this package: deterministic runs, taking turns"
    case .mainSerialExecutor: "combine-schedulers 1.2.2, suite in one withMainSerialExecutor"
    }
  }
}

/// Which of the stories' tests the suite is made of.
enum Bodies: String, CaseIterable {
  case mixed
  case mainActor = "main-actor"
  case offMainActor = "off-main-actor"

  var label: String {
    switch self {
    case .mixed: "half with main-actor bodies, half with bodies off the main actor"
    case .mainActor: "main-actor bodies only"
    case .offMainActor: "bodies off the main actor only"
    }
  }
}

typealias Test = @Sendable () async -> Bool

/// The suite's tests for a row, in the order they are started (test `i` is `i % count`).
func tests(for row: Row, _ bodies: Bodies) -> [Test] {
  let mainActor: [Test]
  let offMainActor: [Test]
  switch row {
  case .takingTurns:
    mainActor = [
      SchedulersStories.debouncedSearch, SchedulersStories.countdown,
      SchedulersStories.viewState,
    ]
    offMainActor = [
      SchedulersStories.debouncedSearchOffMainActor, SchedulersStories.countdownOffMainActor,
      SchedulersStories.viewStateOffMainActor,
    ]
  case .mainSerialExecutor:
    mainActor = [
      CombineSchedulersStories.debouncedSearch, CombineSchedulersStories.countdown,
      CombineSchedulersStories.viewState,
    ]
    offMainActor = [
      CombineSchedulersStories.debouncedSearchOffMainActor,
      CombineSchedulersStories.countdownOffMainActor,
      CombineSchedulersStories.viewStateOffMainActor,
    ]
  }
  switch bodies {
  case .mixed: return zip(mainActor, offMainActor).flatMap { [$0, $1] }
  case .mainActor: return mainActor
  case .offMainActor: return offMainActor
  }
}

/// Starts `count` tests as child tasks of one group, as Swift Testing does, and counts passes.
func runSuite(_ tests: [Test], count: Int) async -> Int {
  await withTaskGroup(of: Bool.self) { group in
    for index in 0..<count {
      let test = tests[index % tests.count]
      group.addTask { await test() }
    }
    var passed = 0
    for await testPassed in group where testPassed { passed += 1 }
    return passed
  }
}

/// The child's work: one untimed run of each test (the first run installs the routing), then
/// the suite, timed from its first test's start to its last test's end.
@MainActor
func measureSuite(_ row: Row, tests count: Int, _ bodies: Bodies) async -> (Duration, Int) {
  let tests = tests(for: row, bodies)
  let clock = ContinuousClock()
  var elapsed = Duration.zero
  var passed = 0
  switch row {
  case .takingTurns:
    for test in tests { _ = await test() }
    let start = clock.now
    passed = await runSuite(tests, count: count)
    elapsed = clock.now - start
  case .mainSerialExecutor:
    await withMainSerialExecutor { @MainActor in
      for test in tests { _ = await test() }
      let start = clock.now
      passed = await runSuite(tests, count: count)
      elapsed = clock.now - start
    }
  }
  return (elapsed, passed)
}

// MARK: - The parent: one child process per row and repetition

/// What one child reported, or why it reported nothing.
enum Outcome {
  case measured(seconds: Double, passed: Int)
  case failed(String)
}

/// The line a child prints for its parent: `suite-result <seconds> <passed>`.
let resultPrefix = "suite-result"

func runChild(_ row: Row, tests: Int, bodies: Bodies) -> Outcome {
  let process = Process()
  #if os(Linux)
    // Not `arguments[0]`, which may be relative to a directory or found on the PATH.
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
  #else
    process.executableURL =
      Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
  #endif
  process.arguments = ["--row", row.rawValue, "--tests", "\(tests)", "--bodies", bodies.rawValue]
  let output = Pipe()
  process.standardOutput = output  // the child's stderr stays ours: its failures show
  do { try process.run() } catch { return .failed("did not start: \(error)") }
  // A suite that hangs (a deadlock) must not hang the table: a minute, plus 10 ms a test.
  let pid = process.processIdentifier
  let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
  DispatchQueue.global().asyncAfter(
    deadline: .now() + 60 + Double(tests) / 100, execute: watchdog)
  let data = output.fileHandleForReading.readDataToEndOfFile()
  watchdog.cancel()
  process.waitUntilExit()
  if process.terminationReason == .uncaughtSignal {
    return .failed(
      process.terminationStatus == SIGKILL
        ? "timed out" : "killed by signal \(process.terminationStatus)")
  }
  let line = String(decoding: data, as: UTF8.self).split(separator: "\n")
    .last { $0.hasPrefix(resultPrefix) }
  let fields = line?.split(separator: " ") ?? []
  guard fields.count == 3, let seconds = Double(fields[1]), let passed = Int(fields[2]) else {
    return .failed("exit status \(process.terminationStatus), no result")
  }
  return .measured(seconds: seconds, passed: passed)
}

func grouped(_ value: Int) -> String {
  let digits = String(value.magnitude)
  var result = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
    result.append(digit)
  }
  return (value < 0 ? "-" : "") + result
}

func fixed(_ value: Double, _ decimals: Int) -> String {
  String(format: "%.\(decimals)f", value)
}

func usage() -> Never {
  FileHandle.standardError.write(
    Data(
      """
      usage: suite-bench [--tests N] [--repetitions N] [--bodies mixed|main-actor|off-main-actor]

      """.utf8))
  exit(2)
}

// MARK: - Arguments

var testCount = 1_000
// Five, not three: a suite takes about a tenth of a second here, so one slow wake-up moves a
// repetition by 10 to 20%, and a child process costs well under a second.
var repetitions = 5
var bodies = Bodies.mixed
var childRow: Row?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--tests":
    guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { usage() }
    testCount = value
  case "--repetitions":
    guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { usage() }
    repetitions = value
  case "--bodies":
    guard let value = arguments.popFirst().flatMap(Bodies.init(rawValue:)) else { usage() }
    bodies = value
  case "--row":  // the child's side, not in the usage
    guard let value = arguments.popFirst().flatMap(Row.init(rawValue:)) else { usage() }
    childRow = value
  default: usage()
  }
}

if let childRow {
  let (elapsed, passed) = await measureSuite(childRow, tests: testCount, bodies)
  let (seconds, attoseconds) = elapsed.components
  print("\(resultPrefix) \(Double(seconds) + Double(attoseconds) / 1e18) \(passed)")
  exit(0)
}

// MARK: - The table

var outcomes: [Row: [Outcome]] = [:]
// Rows alternate within each repetition, so that a slow spell of the machine spreads over all.
for repetition in 1...repetitions {
  for row in Row.allCases {
    FileHandle.standardError.write(
      Data("suite-bench: repetition \(repetition) of \(repetitions), \(row.rawValue)\n".utf8))
    outcomes[row, default: []].append(runChild(row, tests: testCount, bodies: bodies))
  }
}

print(
  """
  \(grouped(testCount)) tests (\(bodies.label)), one task group; median of \(repetitions) \
  repetitions, each in a fresh process; idle machine, \
  \(ProcessInfo.processInfo.activeProcessorCount) cores.

  | way of running the suite | wall time, median (min to max) | tests per second | passed (worst) |
  | --- | --- | --- | --- |
  """)

var allPassed = true
for row in Row.allCases {
  let results = outcomes[row, default: []]
  var times: [Double] = []
  var worst = Int.max
  var failures: [String] = []
  for outcome in results {
    switch outcome {
    case .measured(let seconds, let passed):
      times.append(seconds)
      worst = min(worst, passed)
    case .failed(let reason): failures.append(reason)
    }
  }
  times.sort()
  if worst < testCount || !failures.isEmpty { allPassed = false }
  guard !times.isEmpty else {
    print("| \(row.label) | no result: \(failures.joined(separator: "; ")) | | |")
    continue
  }
  let median = times[times.count / 2]

  let failureNote =
    failures.isEmpty
    ? "" : " (\(failures.count) of \(results.count): \(failures.joined(separator: "; ")))"
  print(
    "| \(row.label) | \(fixed(median, 3)) s (\(fixed(times.first!, 3)) to "
      + "\(fixed(times.last!, 3))) | \(grouped(Int((Double(testCount) / median).rounded()))) | "
      + "\(grouped(worst)) of \(grouped(testCount))\(failureNote) |")
}
exit(allPassed ? 0 : 1)

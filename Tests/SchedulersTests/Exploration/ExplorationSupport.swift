import Foundation
import Schedulers
@_spi(Experimental) import SchedulersTesting
import Synchronization
import Testing

/// Every test of exploring schedules, one at a time: for speed only. Runs take turns at one
/// gate, and nine explorations of 10,000 schedules contending for it took 30 s of wall time
/// for 18 s of work (16 s one at a time). Not for the seeds: an exploring run chooses among its
/// own jobs only, so the other suites' tests, running beside these, change none of its choices.
@Suite("Exploring schedules", .serialized) enum ExplorationTests {}

/// How many schedules the fixed versions of the bug classes, and the loops that wait by
/// yielding, must pass: 10,000, as their names say. `EXPLORATION_TEST_SCHEDULES` (a test-only
/// variable, like `FUZZ_PROGRAMS`) sets fewer: CI's suites on the other backends pass 1,000,
/// and those under a sanitizer (the thread sanitizer's, and the Combine side's under the
/// address sanitizer) 100. The sanitizers look for races and memory errors in the run's code,
/// which every schedule runs alike; the default suite explores the 10,000.
let passingSchedules: Int =
  EnvironmentValue.read("EXPLORATION_TEST_SCHEDULES", expected: "a whole number above 0") {
    Int($0).flatMap { $0 > 0 ? $0 : nil }
  } ?? 10_000

/// What an exploration that found a failing schedule reported, read from its issues.
struct ExplorationFinding: Sendable {
  /// The failing schedule's seed, as the report spells it (`0x` and 16 digits).
  var seed: UInt64
  /// How many seeded schedules passed before the failing one.
  var passedBefore: Int
  /// Every issue the exploration recorded, as Swift Testing describes it.
  var reports: [String]
}

/// The spelling a report gives for `strategy` in its replay line.
func replaySpelling(_ strategy: DeterministicExecution.ExplorationStrategy, seed: String)
  -> String
{
  let spelled: String
  switch strategy {
  case .randomWalk: spelled = ".randomWalk"
  case .pct(let depth): spelled = ".pct(depth: \(depth))"
  case .exhaustive(let preemptions): spelled = ".exhaustive(preemptions: \(preemptions))"
  }
  return ".exploring(strategy: \(spelled), replay: \(seed))"
}

/// Explores `body` with `strategy` and the default schedule count, expecting the exploration
/// to find a failing schedule (the first-in first-out run passes, a seeded one fails); checks
/// the report, then replays the reported seed once and checks that it fails again. Returns what
/// was found, or `nil` (with an issue recorded) when nothing was.
///
/// Once, each: an exploring run chooses among its own jobs only, so a job of a test running in
/// parallel (outside this serialized suite) that arrives meanwhile changes no choice, and the
/// first replay of a seed is the schedule it names, alone or in a busy suite.
@discardableResult
func exploringFindsAFailingSchedule(
  strategy: DeterministicExecution.ExplorationStrategy = .pct(depth: 3),
  schedules: Int = 500,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () async throws -> Void
) async -> ExplorationFinding? {
  guard
    let finding = await exploreOnce(
      strategy: strategy, schedules: schedules, sourceLocation: sourceLocation, body)
  else { return nil }
  let replayed = await replay(finding.seed, strategy: strategy, body)
  let seed = hexadecimalSeed(finding.seed)
  #expect(
    replayed.contains { $0.contains("The replayed schedule fails") && $0.contains(seed) },
    "\(replayed)", sourceLocation: sourceLocation)
  return finding
}

/// One exploration of `body`, expected to find a failing schedule; its report checked.
private func exploreOnce(
  strategy: DeterministicExecution.ExplorationStrategy, schedules: Int,
  sourceLocation: SourceLocation,
  _ body: @escaping @Sendable () async throws -> Void
) async -> ExplorationFinding? {
  let reports = Mutex<[String]>([])
  await withKnownIssue("the buggy version fails under some schedule") {
    await exploreSchedules(
      .exploring(schedules: schedules, strategy: strategy), body)
  } matching: { issue in
    reports.withLock { $0.append(issue.description) }
    return true
  }
  let found = reports.withLock { $0 }
  guard let report = found.first(where: { $0.contains("Exploring schedules found a failing one") })
  else {
    Issue.record(
      "No failing schedule was found, or the first-in first-out run failed: \(found)",
      sourceLocation: sourceLocation)
    return nil
  }
  #expect(
    !found.contains { $0.contains("fails before any exploring") },
    "the first-in first-out run passes: the race is hidden", sourceLocation: sourceLocation)
  guard let seedMatch = report.firstMatch(of: /seed (0x[0-9A-F]{16})/),
    let seed = UInt64(seedMatch.1.dropFirst(2), radix: 16),
    let passedMatch = report.firstMatch(of: /\((\d+) passed before it\)/),
    let passedBefore = Int(passedMatch.1)
  else {
    Issue.record("The report names no seed: \(report)", sourceLocation: sourceLocation)
    return nil
  }
  #expect(
    report.contains(replaySpelling(strategy, seed: String(seedMatch.1))),
    sourceLocation: sourceLocation)
  #expect(
    report.contains("SCHEDULERS_EXPLORATION_REPLAY=\(seedMatch.1)"),
    sourceLocation: sourceLocation)
  #expect(report.contains("What ran:"), sourceLocation: sourceLocation)
  #expect(
    report.contains("The seed was replayed once here: the same jobs ran in the same order"),
    "the exploration checks its seed before handing it out: \(report)",
    sourceLocation: sourceLocation)
  return ExplorationFinding(seed: seed, passedBefore: passedBefore, reports: found)
}

/// Replays `seed` once; returns the issues it recorded (none: it passed).
private func replay(
  _ seed: UInt64, strategy: DeterministicExecution.ExplorationStrategy,
  _ body: @escaping @Sendable () async throws -> Void
) async -> [String] {
  let replayReports = Mutex<[String]>([])
  await withKnownIssue("the replayed schedule fails again", isIntermittent: true) {
    await exploreSchedules(
      .exploring(strategy: strategy, replay: seed), body)
  } matching: { issue in
    replayReports.withLock { $0.append(issue.description) }
    return true
  }
  return replayReports.withLock { $0 }
}

/// `0x` and 16 hexadecimal digits, as reports spell seeds.
func hexadecimalSeed(_ seed: UInt64) -> String {
  let digits = String(seed, radix: 16, uppercase: true)
  return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
}

/// The strategies compared on every bug class: the default first.
let comparedStrategies: [DeterministicExecution.ExplorationStrategy] = [
  .pct(depth: 3), .pct(depth: 2), .randomWalk,
]

extension Trait where Self == ConditionTrait {
  /// For tests that find a race and replay its seed, and tests that advance a test scheduler
  /// while exploring: the custom-executors backend. With the runtime hooks (and the
  /// main-queue backend), two things the machinery does not handle yet: the jobs of the same
  /// test's first-in first-out run differ from one run to the next (18 to 30 jobs for the
  /// reentrancy example, the yields' continuations not among them), so a seed does not name
  /// one schedule and these races are not found within the default 500 schedules; and
  /// `advance` can return with the run's work still queued (the chooser keeps picking the
  /// advancing task over the others), so a correct bridge's call has not returned yet.
  static var explorationNeedsTheCustomExecutors: Self {
    .enabled(
      if: DeterministicExecution.backend == .customExecutors,
      """
      with the \(DeterministicExecution.backend) backend a run's jobs vary from run to run \
      and advance can return with work queued, so exploring cannot replay a seed
      """)
  }
}

// MARK: A process that stops

/// The seed and the list of last jobs a crashed exploration wrote to standard error.
struct CrashReport {
  var seed: String
  var lastJobs: [Substring]
  init?(_ standardError: String) {
    guard let range = standardError.range(of: "SCHEDULERS_EXPLORATION_REPLAY=0x") else {
      return nil
    }
    let digits = standardError[range.upperBound...].prefix(16)
    seed = "0x" + digits
    lastJobs = Self.lastJobs(in: standardError)
  }
  static func lastJobs(in standardError: String) -> [Substring] {
    guard let start = standardError.range(of: "The last jobs it ran") else { return [] }
    return standardError[start.lowerBound...].split(separator: "\n").dropFirst()
      .prefix { $0.hasPrefix("    ") }
  }
}

/// A seed handed from a test to its exit test's child, which captures nothing: written to a
/// file named after the parent process, read by the child from its parent's name.
struct SeedHandOver {
  private let path: String

  /// Writes `seed` (as reports spell it: `0x` and 16 digits) for this process's children.
  init(_ seed: String) throws {
    path = Self.path(of: getpid())
    try seed.write(toFile: path, atomically: true, encoding: .utf8)
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }

  /// In the child: the seed its parent handed over.
  static func seedFromTheParent() throws -> UInt64 {
    let text = try String(contentsOfFile: path(of: getppid()), encoding: .utf8)
    return try #require(UInt64(text.dropFirst(2), radix: 16))
  }

  private static func path(of process: pid_t) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "swift-schedulers-replay-\(process)"
    ).path
  }
}

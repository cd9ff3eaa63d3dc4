import Foundation
import SchedulersTesting
import Synchronization
import Testing

/// How many schedules each exploration may take: 1,000, as CI runs them;
/// `CATALOGUE_SCHEDULES=10000` raises it for a deeper run.
let catalogueSchedules: Int =
  ProcessInfo.processInfo.environment["CATALOGUE_SCHEDULES"].flatMap { Int($0) } ?? 1_000

/// Every test that explores, one at a time, so that the explorations do not contend for the
/// run (for speed only: a seed names the same schedule in a busy process).
@Suite(.serialized) enum Catalogue {}

/// What an exploration that found a failing schedule reported.
struct Finding: Sendable {
  var seed: UInt64
  /// The failing schedule's number, counted from 1.
  var schedule: Int
  var reports: [String]
}

/// Explores `body`, expecting a failing schedule whose seed the exploration replayed; then
/// replays the seed once more here and expects the same failure. `nil` (with an issue) when
/// nothing was found.
@discardableResult
func exploringFindsAFailingSchedule(
  strategy: DeterministicExecution.ExplorationStrategy = .pct(depth: 3),
  schedules: Int = catalogueSchedules,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () async throws -> Void
) async -> Finding? {
  guard let finding = await explore(strategy: strategy, schedules: schedules, body) else {
    Issue.record("No failing schedule in \(schedules)", sourceLocation: sourceLocation)
    return nil
  }
  #expect(
    finding.reports.contains { $0.contains("The seed was replayed once here") },
    "\(finding.reports)", sourceLocation: sourceLocation)
  let replayed = Mutex<[String]>([])
  await withKnownIssue("the replayed schedule fails again") {
    await exploreSchedules(
      .exploring(strategy: strategy, replay: finding.seed), body)
  } matching: { issue in
    replayed.withLock { $0.append(issue.description) }
    return true
  }
  #expect(
    replayed.withLock { $0 }.contains { $0.contains("The replayed schedule fails") },
    sourceLocation: sourceLocation)
  return finding
}

/// One exploration of `body` whose failures are expected; what it found, if anything.
func explore(
  strategy: DeterministicExecution.ExplorationStrategy, schedules: Int,
  _ body: @escaping @Sendable () async throws -> Void
) async -> Finding? {
  let reports = Mutex<[String]>([])
  await withKnownIssue("the buggy version fails under some schedule", isIntermittent: true) {
    await exploreSchedules(
      .exploring(schedules: schedules, strategy: strategy), body)
  } matching: { issue in
    reports.withLock { $0.append(issue.description) }
    return true
  }
  let found = reports.withLock { $0 }
  guard let report = found.first(where: { $0.contains("Exploring schedules found a failing one") }),
    let seed = report.firstMatch(of: /seed 0x([0-9A-F]{16})/).flatMap({ UInt64($0.1, radix: 16) }),
    let schedule = report.firstMatch(of: /schedule (\d+) of/).flatMap({ Int($0.1) })
  else { return nil }
  return Finding(seed: seed, schedule: schedule, reports: found)
}

/// The seed and schedule a crashed exploration wrote to standard error.
struct CrashReport {
  var seed: String
  var schedule: Int
  init?(_ standardError: String) {
    guard let seed = standardError.firstMatch(of: /SCHEDULERS_EXPLORATION_REPLAY=(0x[0-9A-F]{16})/),
      let schedule = standardError.firstMatch(of: /in schedule (\d+) of/).flatMap({ Int($0.1) })
    else { return nil }
    self.seed = String(seed.1)
    self.schedule = schedule
  }
}

/// Where a test hands a seed to its exit test's child, which captures nothing.
func seedHandOverPath(process: pid_t) -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent(
    "swift-schedulers-catalogue-replay-\(process)"
  ).path
}

/// The seed the parent of this exit test's process handed over.
func handedOverSeed() throws -> UInt64 {
  let text = try String(contentsOfFile: seedHandOverPath(process: getppid()), encoding: .utf8)
  return try #require(UInt64(text.dropFirst(2), radix: 16))
}

/// Hands `seed` to the exit tests this process starts until `body` returns.
func handingOver<T>(_ seed: String, _ body: () async throws -> T) async throws -> T {
  let path = seedHandOverPath(process: getpid())
  try seed.write(toFile: path, atomically: true, encoding: .utf8)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try await body()
}

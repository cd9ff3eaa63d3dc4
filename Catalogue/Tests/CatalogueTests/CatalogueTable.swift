import Foundation
import Reconstructions
import SchedulersTesting
import Synchronization
import Testing

// The numbers of docs/catalogue.md, printed as its table's rows. Not part of CI (it takes
// minutes, and its plain runs wait out real timeouts):
//
//   CATALOGUE_TABLE=1 swift test --package-path Catalogue --filter catalogueTable
//
// For each reconstructed bug: how many schedules PCT (depth 3, the default) and the random
// walk take to find it (up to 10,000) and in how many seconds; and what 1,000 plain runs of the
// same program show, with no deterministic execution: a crash ends the process (so those run
// in a child, which says at which try it stopped), a hang is a try not done within 100 ms.

struct CatalogueEntry: Sendable {
  var name: String
  var crashes: Bool
  /// One plain run of the buggy program: `true` when it returned a wrong result.
  var plain: @Sendable () async -> Bool
  /// The buggy program as the explorations check it.
  var explored: @Sendable () async throws -> Void
}

let catalogueEntries: [String: CatalogueEntry] = [
  "issue142": CatalogueEntry(
    name: "issue142", crashes: true,
    plain: {
      _ = await cancelAWaitingIterationThenSend(.buggy)
      return false
    },
    explored: { _ = await cancelAWaitingIterationThenSend(.buggy) }),
  "pr80": CatalogueEntry(
    name: "pr80", crashes: false,
    plain: { await cancelAnIterationAsItStarts(.buggy) != nil },
    explored: { _ = await cancelAnIterationAsItStarts(.buggy) }),
  "pr164": CatalogueEntry(
    name: "pr164", crashes: false,
    plain: {
      let lost = Mutex(false)
      await failAChannelBesideAnIteration(.buggy) { seen in
        lost.withLock { $0 = (try? seen.get()) != nil }
      }
      return lost.withLock { $0 }
    },
    explored: {
      await failAChannelBesideAnIteration(.buggy) { seen in
        #expect(throws: ChannelFailure.self) { try seen.get() }
      }
    }),
  "pr250": CatalogueEntry(
    name: "pr250", crashes: true,
    plain: {
      _ = await cancelAMergeAroundItsFirstNext(.buggy)
      return false
    },
    explored: { _ = await cancelAMergeAroundItsFirstNext(.buggy) }),
  "lifecycle248": CatalogueEntry(
    name: "lifecycle248", crashes: false,
    plain: { (try? await runAGroupAndShutItDown(.buggy).get()) != 1 },
    explored: {
      let cleanUps = try await runAGroupAndShutItDown(.buggy).get()
      #expect(cleanUps == 1)
    }),
  "dataloader27": CatalogueEntry(
    name: "dataloader27", crashes: false,
    plain: { await readWhatALoaderFulfils(.buggy) != 7 },
    explored: { #expect(await readWhatALoaderFulfils(.buggy) == 7) }),
]

let tableSchedules = 10_000
let plainTries = 1_000

/// Runs in a child process: the entry and mode its parent named in the hand-over file.
func runTableChild() async throws {
  let request = try String(
    contentsOfFile: seedHandOverPath(process: getppid()), encoding: .utf8
  ).split(separator: " ").map(String.init)
  let entry = try #require(catalogueEntries[request[0]])
  switch request[1] {
  case "plain":
    for index in 1...plainTries {
      FileHandle.standardError.write(Data("plain try \(index)\n".utf8))
      _ = await entry.plain()
    }
    FileHandle.standardError.write(Data("no crash\n".utf8))
    exit(1)  // an exit test's condition: the parent reads what was written
  default:
    let strategy: DeterministicExecution.ExplorationStrategy =
      request[1] == "pct" ? .pct(depth: 3) : .randomWalk
    await exploreSchedules(
      .exploring(schedules: tableSchedules, strategy: strategy), entry.explored)
    exit(1)
  }
}

extension Catalogue {
  @Suite struct Table {}
}

extension Catalogue.Table {
  @Test(.enabled(if: ProcessInfo.processInfo.environment["CATALOGUE_TABLE"] == "1"))
  func catalogueTable() async throws {
    var rows: [String] = []
    for key in ["issue142", "pr80", "pr164", "pr250", "lifecycle248", "dataloader27"] {
      let entry = try #require(catalogueEntries[key])
      var cells = [key]
      for mode in ["pct", "random"] {
        let clock = ContinuousClock()
        let start = clock.now
        var schedule: Int?
        if entry.crashes {
          let output = try await handingOver("\(key) \(mode)") {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
              try await runTableChild()
            }
          }
          let text = String(decoding: output?.standardErrorContent ?? [], as: UTF8.self)
          schedule = CrashReport(text)?.schedule
        } else {
          schedule = await explore(
            strategy: mode == "pct" ? .pct(depth: 3) : .randomWalk, schedules: tableSchedules,
            entry.explored)?.schedule
        }
        let seconds = (clock.now - start) / .seconds(1)
        cells.append(schedule.map { "\($0)" } ?? "not in \(tableSchedules)")
        cells.append(String(format: "%.2f", seconds))
      }
      cells.append(try await plainRuns(entry))
      rows.append("| " + cells.joined(separator: " | ") + " |")
    }
    print(rows.joined(separator: "\n"))
  }
}

/// What `plainTries` plain runs of `entry` show.
func plainRuns(_ entry: CatalogueEntry) async throws -> String {
  if entry.crashes {
    let output = try await handingOver("\(entry.name) plain") {
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        try await runTableChild()
      }
    }
    let text = String(decoding: output?.standardErrorContent ?? [], as: UTF8.self)
    if text.contains("no crash") { return "no crash in \(plainTries) tries" }
    let last = text.matches(of: /plain try (\d+)/).last.map { String($0.1) } ?? "?"
    return "crashed at try \(last)"
  }
  var wrong = 0
  var hung = 0
  for _ in 0..<plainTries {
    switch await withTimeout(milliseconds: 100, entry.plain) {
    case .some(true): wrong += 1
    case .some(false): break
    case .none: hung += 1
    }
  }
  return "\(wrong) wrong, \(hung) hung of \(plainTries)"
}

/// `body`'s result, or `nil` when it has not returned within `milliseconds` (it is left
/// running: a hung program cannot be stopped).
func withTimeout(
  milliseconds: Int, _ body: @escaping @Sendable () async -> Bool
) async -> Bool? {
  let answered = Mutex(false)
  return await withCheckedContinuation { (continuation: CheckedContinuation<Bool?, Never>) in
    let once = { @Sendable (value: Bool?) in
      if answered.withLock({ done in
        defer { done = true }; return !done
      }) {
        continuation.resume(returning: value)
      }
    }
    Task { once(await body()) }
    Task {
      try? await Task.sleep(for: .milliseconds(milliseconds))
      once(nil)
    }
  }
}

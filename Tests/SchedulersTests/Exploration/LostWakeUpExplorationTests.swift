import Foundation
import Schedulers
import SchedulersTesting
import Testing

// A one-value mailbox whose reader looks for a value and, finding none, registers as a waiter
// in a second hop. A writer that lands between the two finds no waiter and leaves the value; the
// reader then waits for a wake-up that never comes. Its continuation does not end on
// cancellation, so the body cannot unwind: under the test trait the process must stop, and the
// report (the deadlock, what was pending, the schedule's seed) has to go out with it.

protocol Mailbox: Actor {
  init()
  func peek() -> Int?
  func wait(_ continuation: CheckedContinuation<Int, Never>)
  func put(_ value: Int)
}

/// The bug: `wait` trusts the look `peek` took in an earlier hop.
actor LosingMailbox: Mailbox {
  private var value: Int?
  private var waiter: CheckedContinuation<Int, Never>?
  func peek() -> Int? { value }
  func wait(_ continuation: CheckedContinuation<Int, Never>) { waiter = continuation }
  func put(_ value: Int) {
    guard let waiter else { return self.value = value }
    self.waiter = nil
    waiter.resume(returning: value)
  }
}

/// The fix: `wait` looks again, in the hop that registers.
actor KeepingMailbox: Mailbox {
  private var value: Int?
  private var waiter: CheckedContinuation<Int, Never>?
  func peek() -> Int? { value }
  func wait(_ continuation: CheckedContinuation<Int, Never>) {
    guard let value else { return waiter = continuation }
    continuation.resume(returning: value)
  }
  func put(_ value: Int) {
    guard let waiter else { return self.value = value }
    self.waiter = nil
    waiter.resume(returning: value)
  }
}

/// A writer a few round trips late (so the first-in first-out run registers the reader first),
/// and the reader.
func receiveWhatIsSent<Box: Mailbox>(_: Box.Type) async -> Int {
  let box = Box()
  Task {
    for _ in 0..<3 { await Task.yield() }
    await box.put(7)
  }
  if let value = await box.peek() { return value }
  return await withCheckedContinuation { continuation in
    Task { await box.wait(continuation) }
  }
}

extension ExplorationTests {
  @Suite("A schedule that hangs is a finding")
  struct HangingSchedules {
    /// The lost wake-up under the trait, as a test with
    /// `@Test(.deterministicExecution(.exploring(schedules: 1_000)))` runs it.
    static func exploreUnderTheTrait(replay: UInt64? = nil) async throws {
      let trait = DeterministicExecutionTrait.deterministicExecution(
        .exploring(schedules: 1_000, replay: replay))
      try await trait.scope(
        testName: "theReaderIsWokenUp()", declaration: #_sourceLocation
      ) {
        #expect(await receiveWhatIsSent(LosingMailbox.self) == 7)
      }
    }

    @Test(.exitTestOffThePool, .explorationNeedsTheCustomExecutors)
    func aLostWakeUpUnderTheTraitEndsTheProcessWithASeedThatReplaysIt() async throws {
      let found = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        try await HangingSchedules.exploreUnderTheTrait()
      }
      let standardError = String(decoding: found?.standardErrorContent ?? [], as: UTF8.self)
      // The deadlock as the run first saw it, the body that could not unwind, and the test.
      #expect(standardError.contains("theReaderIsWokenUp(): Deterministic run deadlocked"))
      #expect(standardError.contains("did not finish when cancelled"))
      #expect(
        standardError.contains(
          "What the run found before it cancelled the body: Deterministic run deadlocked: the body is suspended and nothing in the run can resume it"
        ), "\(standardError)")
      // Which task waits, and on which continuation.
      #if os(Linux)
        #expect(
          standardError.contains(
            "the body's task waits on a continuation that SchedulersTests.receiveWhatIsSent(_:) made (withCheckedContinuation), which nothing in the run can resume any more"
          ), "\(standardError)")
      #endif
      // The schedule, its seed and its last jobs.
      #expect(
        standardError.contains("The process is stopping while exploring schedules, in schedule"))
      let report = try #require(
        CrashReport(standardError), "\(standardError)")
      #expect(!report.lastJobs.isEmpty, "\(standardError)")

      let handOver = try SeedHandOver(report.seed)
      defer { handOver.remove() }
      let replayed = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
      {
        let seed = try SeedHandOver.seedFromTheParent()
        try await HangingSchedules.exploreUnderTheTrait(replay: seed)
      }
      let again = String(decoding: replayed?.standardErrorContent ?? [], as: UTF8.self)
      #expect(again.contains("The process is stopping in the replayed schedule"))
      #expect(again.contains(report.seed))
      #expect(again.contains("did not finish when cancelled"))
      #expect(
        CrashReport.lastJobs(in: again) == report.lastJobs,
        "\(again)")
    }

    @Test(.deterministicExecution(.exploring(schedules: passingSchedules)))
    func theKeepingMailboxWakesItsReaderInEverySchedule() async {
      #expect(await receiveWhatIsSent(KeepingMailbox.self) == 7)
    }
  }
}

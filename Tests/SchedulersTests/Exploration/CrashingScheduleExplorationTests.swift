import Foundation
import Schedulers
import SchedulersTesting
import Testing

// A one-shot bridge whose reply and timeout both resume one `CheckedContinuation`. The buggy
// guard checks its flag, awaits (a log line, the other side's cancellation), and only then sets
// it: an actor lets the other caller in at that await, both find the flag clear, and the
// continuation is resumed twice, which the concurrency runtime answers by stopping the process.
// Nothing in the process can catch that, so the exploration's report must be on standard error
// before the process ends, with a seed that replays the crash.

protocol ResumeGuard: Actor {
  init()
  func resume(_ continuation: CheckedContinuation<Int, Never>, returning value: Int) async
}

/// The bug: checks, awaits, then sets.
actor CheckThenAwaitGuard: ResumeGuard {
  private var resumed = false
  func resume(_ continuation: CheckedContinuation<Int, Never>, returning value: Int) async {
    guard !resumed else { return }
    await Task.yield()  // a log line, the other side's cancellation: any await
    resumed = true
    continuation.resume(returning: value)
  }
}

/// The fix: the flag is set before anything awaits.
actor SetBeforeAwaitGuard: ResumeGuard {
  private var resumed = false
  func resume(_ continuation: CheckedContinuation<Int, Never>, returning value: Int) async {
    guard !resumed else { return }
    resumed = true
    await Task.yield()
    continuation.resume(returning: value)
  }
}

/// The reply comes at once; the timeout a few round trips later, so that the first-in first-out
/// run has the reply's guard done before the timeout's looks: only another order crashes.
func replyOrTimeout<Guard: ResumeGuard>(_: Guard.Type) async -> Int {
  let once = Guard()
  return await withCheckedContinuation { continuation in
    Task { await once.resume(continuation, returning: 42) }
    Task {
      for _ in 0..<2 { await Task.yield() }
      await once.resume(continuation, returning: -1)
    }
  }
}

extension ExplorationTests {
  @Suite("A schedule that stops the process is a finding")
  struct CrashingSchedules {
    @Test(.exitTestOffThePool, .explorationNeedsTheCustomExecutors)
    func aDoubleResumeEndsTheProcessWithASeedThatReplaysIt() async throws {
      let found = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await exploreSchedules(.exploring(schedules: 1_000)) {
          _ = await replyOrTimeout(CheckThenAwaitGuard.self)
        }
      }
      let standardError = String(decoding: found?.standardErrorContent ?? [], as: UTF8.self)
      #expect(standardError.contains("resume its continuation more than once"))
      #expect(
        standardError.contains("The process is stopping while exploring schedules, in schedule"))
      // A job of the run's own crashed: the schedule's.
      #expect(!standardError.contains("not the deterministic run's"), "\(standardError)")
      let report = try #require(CrashReport(standardError), "\(standardError)")
      #expect(standardError.contains("replay: \(report.seed))"))
      #expect(!report.lastJobs.isEmpty, "\(standardError)")

      let handOver = try SeedHandOver(report.seed)
      defer { handOver.remove() }
      let replayed = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
      {
        let seed = try SeedHandOver.seedFromTheParent()
        await exploreSchedules(.exploring(replay: seed)) {
          _ = await replyOrTimeout(CheckThenAwaitGuard.self)
        }
      }
      let again = String(decoding: replayed?.standardErrorContent ?? [], as: UTF8.self)
      #expect(again.contains("The process is stopping in the replayed schedule"))
      #expect(again.contains(report.seed))
      #expect(again.contains("resume its continuation more than once"))
      // The same jobs, up to the one that crashed.
      #expect(CrashReport.lastJobs(in: again) == report.lastJobs, "\(again)")
    }

    /// A thread that is not the run's (one the body starts, which runs none of the run's jobs)
    /// crashes while a schedule runs: the report says so, and that the crash is not known to
    /// be the schedule's, before it says where the exploration was.
    @Test(.exitTestOffThePool)
    func aCrashOfAThreadThatIsNotTheRunsIsNotBlamedOnTheSchedule() async {
      let found = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        exitIfStillRunning(after: 60)
        await exploreSchedules(.exploring(schedules: 10)) {
          Thread.detachNewThread { preconditionFailure("a thread of its own crashed") }
          // The crash ends the process; the wait is only its bound.
          _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .seconds(60))
        }
      }
      let standardError = String(decoding: found?.standardErrorContent ?? [], as: UTF8.self)
      #expect(standardError.contains("a thread of its own crashed"), "\(standardError)")
      #expect(
        standardError.contains(
          "The crash came from a thread that is not the deterministic run's (neither its driver "
            + "nor one running a job of its own)"), "\(standardError)")
      #expect(
        standardError.contains(
          "It is not known to be the schedule's, and replaying the schedule may not repeat it."),
        "\(standardError)")
      #expect(
        standardError.contains(
          "The exploration was then here:\nThe process is stopping while exploring schedules"),
        "\(standardError)")
    }

    @Test func theFixedGuardPassesEverySchedule() async {
      await exploreSchedules(.exploring(schedules: passingSchedules)) {
        // Either side may win; the fix is that only one resumes.
        #expect([42, -1].contains(await replyOrTimeout(SetBeforeAwaitGuard.self)))
      }
    }
  }
}

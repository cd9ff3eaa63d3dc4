import Foundation
import Schedulers
import SchedulersTesting
import Testing

extension ExplorationTests {
  /// `.exhaustive(preemptions:)`: every schedule within the bound, once; a proof where nothing
  /// fails, the first failing one (with the fewest choices out of order) where one does.
  @Suite("Exploring every schedule within a bound")
  struct ExhaustiveExploration {
    @Test(.explorationNeedsTheCustomExecutors)
    func theOverdrawIsFoundWithOnePreemptionAndItsSeedReplays() async throws {
      let finding = try #require(
        await exploringFindsAFailingSchedule(
          strategy: .exhaustive(preemptions: 2), schedules: 100_000
        ) {
          await twoWithdrawalsNeverOverdraw(ReentrantAccount.self)
        })
      // Those with fewer choices out of order run first: one suffices here.
      let report = finding.reports.first { $0.contains("found a failing one") } ?? ""
      #expect(report.contains("with 1 preemption, seed"), "\(report)")
    }

    /// The fixed account is proved: every schedule up to two preemptions passes, and the
    /// exploration says how many there were. Read from the standard error of a child process,
    /// where the exploration writes that line.
    @Test(.exitTestOffThePool, .explorationNeedsTheCustomExecutors)
    func theFixedAccountPassesEveryScheduleUpToTwoPreemptions() async throws {
      let child = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        await exploreSchedules(
          .exploring(schedules: 100_000, strategy: .exhaustive(preemptions: 2))
        ) {
          await twoWithdrawalsNeverOverdraw(CheckedAccount.self)
        }
      }
      let output = String(decoding: child?.standardErrorContent ?? [], as: UTF8.self)
      let proof = try #require(
        output.firstMatch(
          of:
            /all (\d+) distinct schedules up to 2 preemptions \(a preemption: [^)]*\) ran, and none fails/
        ), "\(output)")
      #expect(try #require(Int(proof.1)) > 10, "\(output)")
    }

    /// The fixed versions of the bug classes are proved at 1, 2 and 3 preemptions, each hop
    /// between actors a job: the counts the exploring article gives are the lines these write
    /// to standard error (`swift test --filter theFixedProgramsPassEveryScheduleUpToEachBound`).
    @Test(.explorationNeedsTheCustomExecutors, arguments: [1, 2, 3])
    func theFixedProgramsPassEveryScheduleUpToEachBound(_ bound: Int) async {
      let programs: [@Sendable () async -> Void] = [
        { await twoApprovedWithdrawalsNeverOverdraw(CheckedApprovedAccount.self) },
        { await twoWithdrawalsNeverOverdraw(CheckedAccount.self) },
        { #expect([42, -1].contains(await replyOrTimeout(SetBeforeAwaitGuard.self))) },
        { #expect(await receiveWhatIsSent(KeepingMailbox.self) == 7) },
        { await anImageShownWithItsPreviewIsLoadedOnce(InFlightImageCache.self) },
        { await twoRequestsRefreshTheTokenOnce(InFlightCredentials.self) },
      ]
      for program in programs {
        await exploreSchedules(
          .exploring(schedules: 100_000, strategy: .exhaustive(preemptions: bound)),
          program)
      }
    }

    @Test(.exitTestOffThePool) func aCapBelowTheCountSaysItIsNoProof() async throws {
      let child = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        await exploreSchedules(
          .exploring(schedules: 3, strategy: .exhaustive(preemptions: 2))
        ) {
          await twoWithdrawalsNeverOverdraw(CheckedAccount.self)
        }
      }
      let output = String(decoding: child?.standardErrorContent ?? [], as: UTF8.self)
      #expect(output.contains("but the cap of 3 schedules stopped the exploration"), "\(output)")
      #expect(output.contains("no proof"), "\(output)")
    }

    /// A library does not write to a test process's standard output: the exploration's closing
    /// lines, the proof and the cap's "no proof", go to standard error, as its warnings do.
    @Test(.exitTestOffThePool, .explorationNeedsTheCustomExecutors)
    func theClosingLinesGoToStandardErrorNotStandardOutput() async throws {
      let child = await #expect(
        processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
      ) {
        await exploreSchedules(
          .exploring(schedules: 100_000, strategy: .exhaustive(preemptions: 1))
        ) {
          await twoWithdrawalsNeverOverdraw(CheckedAccount.self)
        }
        await exploreSchedules(
          .exploring(schedules: 3, strategy: .exhaustive(preemptions: 1))
        ) {
          await twoWithdrawalsNeverOverdraw(CheckedAccount.self)
        }
      }
      let standardOutput = String(decoding: child?.standardOutputContent ?? [], as: UTF8.self)
      let standardError = String(decoding: child?.standardErrorContent ?? [], as: UTF8.self)
      #expect(!standardOutput.contains("Exploring schedules"), "\(standardOutput)")
      #expect(standardError.contains("ran, and none fails"), "\(standardError)")
      #expect(
        standardError.contains("but the cap of 3 schedules stopped the exploration"),
        "\(standardError)")
    }
  }
}

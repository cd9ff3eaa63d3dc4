import Foundation
import Reconstructions
import SchedulersTesting
import Testing

// Each historical bug twice: the buggy version found by exploring (the first-in first-out run
// passes; a seeded schedule fails, and its seed fails again on replay), and the fixed version
// passing every schedule. A crash cannot be caught in the process, so those explorations run
// in exit tests whose child writes the report, seed included, to standard error; the seed goes
// to a replay child through a file named after the parent.

extension Catalogue {
  @Suite("Reconstructions of fixed upstream bugs")
  struct Reconstructions {
    // MARK: apple/swift-async-algorithms issue 142: cancel a waiting iteration, then send: a crash.

    @Test func cancellingAWaitingIterationThenSendingCrashesInSomeSchedule() async throws {
      let found = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
          _ = await cancelAWaitingIterationThenSend(.buggy)
        }
      }
      let standardError = String(decoding: found?.standardErrorContent ?? [], as: UTF8.self)
      #expect(standardError.contains("removeFirst"), "\(standardError)")
      let report = try #require(CrashReport(standardError), "\(standardError)")
      let replayed = try await handingOver(report.seed) {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          let seed = try handedOverSeed()
          await exploreSchedules(.exploring(replay: seed)) {
            _ = await cancelAWaitingIterationThenSend(.buggy)
          }
        }
      }
      let again = String(decoding: replayed?.standardErrorContent ?? [], as: UTF8.self)
      #expect(again.contains("The process is stopping in the replayed schedule"), "\(again)")
      #expect(again.contains(report.seed) && again.contains("removeFirst"), "\(again)")
    }

    @Test func theFixedChannelSurvivesEveryOrderOfCancelAndSend() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        #expect([1, nil].contains(await cancelAWaitingIterationThenSend(.fixed)))
      }
    }

    // MARK: apple/swift-async-algorithms PR 80: a cancel before the first next() is lost: a hang.

    @Test func aCancelBeforeTheFirstNextHangsInSomeSchedule() async {
      let finding = await exploringFindsAFailingSchedule {
        _ = await cancelAnIterationAsItStarts(.buggy)
      }
      #expect(finding?.reports.contains { $0.contains("deadlocked") } == true)
    }

    @Test func theFixedChannelEndsACancelledIterationInEveryOrder() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        #expect(await cancelAnIterationAsItStarts(.fixed) == nil)
      }
    }

    // MARK: apple/swift-async-algorithms PR 164: a failure queued before the iteration is lost.

    @Test func aFailureSentBeforeTheIterationIsLostInSomeSchedule() async {
      let finding = await exploringFindsAFailingSchedule {
        await failAChannelBesideAnIteration(.buggy) { seen in
          #expect(throws: ChannelFailure.self) { try seen.get() }
        }
      }
      // Both symptoms: the iteration ended without the failure, and `fail` never returned.
      #expect(finding?.reports.contains { $0.contains("Expectation failed") } == true)
      #expect(finding?.reports.contains { $0.contains("deadlocked") } == true)
    }

    @Test func theFixedChannelThrowsItsFailureInEveryOrder() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        await failAChannelBesideAnIteration(.fixed) { seen in
          #expect(throws: ChannelFailure.self) { try seen.get() }
        }
      }
    }

    // MARK: apple/swift-async-algorithms issue 249: merge cancelled before its task: a crash.

    @Test func aMergeCancelledBeforeItsFirstNextCrashesInSomeSchedule() async throws {
      let found = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
          _ = await cancelAMergeAroundItsFirstNext(.buggy)
        }
      }
      let standardError = String(decoding: found?.standardErrorContent ?? [], as: UTF8.self)
      #expect(standardError.contains("Internal inconsistency"), "\(standardError)")
      let report = try #require(CrashReport(standardError), "\(standardError)")
      let replayed = try await handingOver(report.seed) {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          let seed = try handedOverSeed()
          await exploreSchedules(.exploring(replay: seed)) {
            _ = await cancelAMergeAroundItsFirstNext(.buggy)
          }
        }
      }
      let again = String(decoding: replayed?.standardErrorContent ?? [], as: UTF8.self)
      #expect(again.contains("The process is stopping in the replayed schedule"), "\(again)")
      #expect(again.contains(report.seed) && again.contains("Internal inconsistency"), "\(again)")
    }

    @Test func theFixedMergeToleratesACancelAtAnyPoint() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        #expect([[], [1]].contains(await cancelAMergeAroundItsFirstNext(.fixed)))
      }
    }

    // MARK: swift-server/swift-service-lifecycle issue 248: a shutdown before run() loses it all.

    @Test func aShutdownBeforeRunLosesTheRunInSomeSchedule() async {
      await exploringFindsAFailingSchedule {
        let cleanUps = try await runAGroupAndShutItDown(.buggy).get()
        #expect(cleanUps == 1)
      }
    }

    @Test func theFixedGroupRunsAndCleansUpInEveryOrder() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        let cleanUps = try await runAGroupAndShutItDown(.fixed).get()
        #expect(cleanUps == 1)
      }
    }

    // MARK: GraphQLSwift/DataLoader PR 27: a waiter removed without being resumed: a hang.

    @Test func aReaderBetweenFulfilsHopsIsNeverWokenInSomeSchedule() async {
      let finding = await exploringFindsAFailingSchedule {
        #expect(await readWhatALoaderFulfils(.buggy) == 7)
      }
      #expect(finding?.reports.contains { $0.contains("deadlocked") } == true)
    }

    @Test func theFixedLoaderWakesItsReaderInEveryOrder() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        #expect(await readWhatALoaderFulfils(.fixed) == 7)
      }
    }
  }
}

import Foundation
import Schedulers
import SchedulersDeterministic
import SchedulersTesting
import Synchronization
import Testing

extension ExplorationTests {
  /// `SCHEDULERS_EXPLORATION_SHARD=3/8` splits one exploration across processes (a CI matrix):
  /// this process runs schedules 3, 11, 19, ... of the same seeded sequence, and a seed it
  /// reports replays in any process, without the variable.
  @Suite("Exploration split across processes")
  struct ExplorationShards {
    @Test(.exitTestOffThePool, .explorationNeedsTheCustomExecutors)
    func aShardRunsEveryEighthScheduleAndItsSeedReplaysAnywhere() async throws {
      // The child sets the variable for itself, so no other test of this process sees it, and
      // prints what the exploration reported.
      let child = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
        setenv("SCHEDULERS_EXPLORATION_SHARD", "3/8", 1)
        let reports = Mutex<[String]>([])
        await withKnownIssue {
          await withDeterministicExecution(exploring: .exploring(schedules: 800)) {
            await twoWithdrawalsNeverOverdraw(ReentrantAccount.self)
          }
        } matching: { issue in
          reports.withLock { $0.append(issue.description) }
          return true
        }
        print(reports.withLock { $0.joined(separator: "\n") })
      }
      let output = String(decoding: child?.standardOutputContent ?? [], as: UTF8.self)
      let found = try #require(
        output.firstMatch(
          of: /schedule (\d+) of 800, in shard 3\/8 \(SCHEDULERS_EXPLORATION_SHARD/),
        "\(output)")
      let schedule = try #require(Int(found.1))
      #expect(schedule % 8 == 3, "only every eighth schedule, from the third: \(output)")
      let seedText = try #require(output.firstMatch(of: /seed (0x[0-9A-F]{16})/)).1
      let seed = try #require(UInt64(seedText.dropFirst(2), radix: 16))
      // The seed of that schedule in the unsplit sequence: any process can replay it.
      #expect(
        seed
          == DeterministicExecution.Exploration.exploring(schedules: 800).seed(
            ofSchedule: schedule - 1))
      let replayed = Mutex<[String]>([])
      await withKnownIssue {
        await withDeterministicExecution(exploring: .exploring(replay: seed)) {
          await twoWithdrawalsNeverOverdraw(ReentrantAccount.self)
        }
      } matching: { issue in
        replayed.withLock { $0.append(issue.description) }
        return true
      }
      #expect(replayed.withLock { $0 }.contains { $0.contains("The replayed schedule fails") })
    }

    @Test(.exitTestOffThePool) func aShardThatIsNotANumberOverACountIsRefused() async {
      let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        setenv("SCHEDULERS_EXPLORATION_SHARD", "9/8", 1)
        await withDeterministicExecution(exploring: .exploring(schedules: 1)) {}
      }
      let standardError = String(decoding: child?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        standardError.contains(
          "SCHEDULERS_EXPLORATION_SHARD must be a shard number and a shard count, as 3/8"),
        "\(standardError)")
    }
  }
}

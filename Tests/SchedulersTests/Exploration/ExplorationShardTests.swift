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
          await exploreSchedules(.exploring(schedules: 800)) {
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
        await exploreSchedules(.exploring(replay: seed)) {
          await twoWithdrawalsNeverOverdraw(ReentrantAccount.self)
        }
      } matching: { issue in
        replayed.withLock { $0.append(issue.description) }
        return true
      }
      #expect(replayed.withLock { $0 }.contains { $0.contains("The replayed schedule fails") })
    }

    /// An exhaustive exploration honours the shard: shards 1/2 and 2/2 each run their half of
    /// the schedules (in the exploration's fixed order, every second one), and their counts add
    /// up to the unsharded exploration's.
    @Test(.exitTestOffThePool, .explorationNeedsTheCustomExecutors)
    func exhaustiveShardsSplitTheSchedulesWithoutRepeatingThem() async throws {
      let whole = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        await exploreSchedules(
          .exploring(schedules: 100_000, strategy: .exhaustive(preemptions: 2))
        ) {
          await twoWithdrawalsNeverOverdraw(CheckedAccount.self)
        }
      }
      let first = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        setenv("SCHEDULERS_EXPLORATION_SHARD", "1/2", 1)
        await exploreSchedules(
          .exploring(schedules: 100_000, strategy: .exhaustive(preemptions: 2))
        ) {
          await twoWithdrawalsNeverOverdraw(CheckedAccount.self)
        }
      }
      let second = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        setenv("SCHEDULERS_EXPLORATION_SHARD", "2/2", 1)
        await exploreSchedules(
          .exploring(schedules: 100_000, strategy: .exhaustive(preemptions: 2))
        ) {
          await twoWithdrawalsNeverOverdraw(CheckedAccount.self)
        }
      }
      let wholeLines = String(decoding: whole?.standardErrorContent ?? [], as: UTF8.self)
      let firstLines = String(decoding: first?.standardErrorContent ?? [], as: UTF8.self)
      let secondLines = String(decoding: second?.standardErrorContent ?? [], as: UTF8.self)
      let all = try #require(
        wholeLines.firstMatch(of: /all (\d+) distinct schedules up to 2 preemptions/),
        "\(wholeLines)")
      let inFirst = try #require(
        firstLines.firstMatch(of: /this shard's (\d+) of the (\d+) distinct schedules/),
        "\(firstLines)")
      let inSecond = try #require(
        secondLines.firstMatch(of: /this shard's (\d+) of the (\d+) distinct schedules/),
        "\(secondLines)")
      #expect(firstLines.contains("in shard 1/2 (SCHEDULERS_EXPLORATION_SHARD"), "\(firstLines)")
      #expect(secondLines.contains("in shard 2/2 (SCHEDULERS_EXPLORATION_SHARD"), "\(secondLines)")
      let total = try #require(Int(all.1))
      let (firstCount, secondCount) = (try #require(Int(inFirst.1)), try #require(Int(inSecond.1)))
      #expect(total > 10, "\(wholeLines)")
      #expect(firstCount + secondCount == total, "\(firstLines)\n\(secondLines)")
      // Every second schedule, from the first and from the second.
      #expect(firstCount == (total + 1) / 2 && secondCount == total / 2)
      #expect(Int(inFirst.2) == total && Int(inSecond.2) == total)
    }

    /// In an exit test's child: explores the overdraw exhaustively in `shard` (the variable is
    /// set in the child only), and prints what the exploration reported.
    static func printTheExhaustiveOverdrawsReports(inShard shard: String) async {
      setenv("SCHEDULERS_EXPLORATION_SHARD", shard, 1)
      let reports = Mutex<[String]>([])
      await withKnownIssue(isIntermittent: true) {
        await exploreSchedules(
          .exploring(schedules: 100_000, strategy: .exhaustive(preemptions: 2))
        ) {
          await twoWithdrawalsNeverOverdraw(ReentrantAccount.self)
        }
      } matching: { issue in
        reports.withLock { $0.append(issue.description) }
        return true
      }
      print(reports.withLock { $0.joined(separator: "\n") })
    }

    /// A failing schedule of an exhaustive exploration is reported by the one shard it is in,
    /// and its seed replays without the variable.
    @Test(.exitTestOffThePool, .explorationNeedsTheCustomExecutors)
    func anExhaustiveShardsFailureIsReportedOnceAndReplaysAnywhere() async throws {
      let first = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
        await Self.printTheExhaustiveOverdrawsReports(inShard: "1/2")
      }
      let second = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
        await Self.printTheExhaustiveOverdrawsReports(inShard: "2/2")
      }
      let outputs = [first, second].map {
        String(decoding: $0?.standardOutputContent ?? [], as: UTF8.self)
      }
      let reporting = outputs.filter { $0.contains("found a failing one") }
      #expect(reporting.count == 1, "\(outputs)")
      let output = try #require(reporting.first)
      let found = try #require(
        output.firstMatch(of: /schedule (\d+) of every schedule up to 2 [^,]*, in shard (\d)/),
        "\(output)")
      let (schedule, number) = (try #require(Int(found.1)), try #require(Int(found.2)))
      #expect((schedule - 1) % 2 == number - 1, "\(output)")
      let seedText = try #require(output.firstMatch(of: /seed (0x[0-9A-F]{16})/), "\(output)").1
      let seed = try #require(UInt64(seedText.dropFirst(2), radix: 16))
      let replayed = Mutex<[String]>([])
      await withKnownIssue {
        await exploreSchedules(
          .exploring(strategy: .exhaustive(preemptions: 2), replay: seed)
        ) {
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
        await exploreSchedules(.exploring(schedules: 1)) {}
      }
      let standardError = String(decoding: child?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        standardError.contains(
          "SCHEDULERS_EXPLORATION_SHARD must be a shard number and a shard count, as 3/8"),
        "\(standardError)")
    }
  }
}

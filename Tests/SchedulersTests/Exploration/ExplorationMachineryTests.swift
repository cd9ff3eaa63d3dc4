import SchedulersTesting
import Synchronization
import Testing

/// Counts the runs of an exploring body: one per schedule, the first-in first-out one included.
final class RunCounter: Sendable {
  private let runs = Atomic(0)
  /// Counts one run; returns its number, from 1.
  @discardableResult func count() -> Int { runs.add(1, ordering: .relaxed).newValue }
  var value: Int { runs.load(ordering: .relaxed) }
}

/// Every issue recorded inside `body`, which must record at least one.
func issuesRecorded(by body: () async -> Void) async -> [String] {
  let reports = Mutex<[String]>([])
  await withKnownIssue {
    await body()
  } matching: { issue in
    reports.withLock { $0.append(issue.description) }
    return true
  }
  return reports.withLock { $0 }
}

extension ExplorationTests {
  @Suite("Exploring schedules: the exploration itself")
  struct ExplorationMachineryTests {
    @Test func aPassingBodyRunsOnceFirstInFirstOutThenOncePerSchedule() async {
      let runs = RunCounter()
      await exploreSchedules(.exploring(schedules: 25)) {
        runs.count()
      }
      #expect(runs.value == 1 + 25)
    }

    @Test func theFirstFailingScheduleStopsTheExploration() async {
      let runs = RunCounter()
      let reports = await issuesRecorded {
        await exploreSchedules(.exploring(schedules: 50)) {
          // The first-in first-out run, then two seeded schedules pass; the third fails.
          if runs.count() == 4 { Issue.record("the fourth run fails") }
        }
      }
      // Then the seed's check: a first-in first-out run and the seed again (which passes here,
      // the failure having depended on the run's count, not its order), and no shrinking of
      // a schedule that had nothing to choose.
      #expect(runs.value == 6)
      #expect(
        reports.contains {
          $0.contains(
            "Exploring schedules found a failing one: schedule 3 of 50 (2 passed before it)")
        })
      #expect(
        reports.contains { $0.contains("This seed did not replay here: run again, it passed") })
      #expect(reports.contains { $0.contains("the fourth run fails") })
    }

    /// A seed that does not replay says where the replay went another way: here the body keeps
    /// state from one run to the next (a flag set once it has overdrawn), and the runs after
    /// the failing one start a task more.
    @Test(.explorationNeedsTheCustomExecutors)
    func aSeedThatDoesNotReplaySaysWhereTheReplayWentAnotherWay() async {
      let overdrawnOnce = Atomic(false)
      let reports = await issuesRecorded {
        await exploreSchedules(.exploring(schedules: 500)) {
          if overdrawnOnce.load(ordering: .relaxed) { Task(name: "remembered") {} }
          let account = ReentrantAccount(balance: 100, approvals: WithdrawalApprovals())
          let signIn = SignInService()
          let atOnce = Task { await account.withdraw(80) }
          let afterSignIn = Task {
            await signIn.signIn()
            await account.withdraw(80)
          }
          await atOnce.value
          await afterSignIn.value
          let balance = await account.balance
          if balance < 0 { overdrawnOnce.store(true, ordering: .relaxed) }
          #expect(balance >= 0)
        }
      }
      let report = reports.first { $0.contains("Exploring schedules found a failing one") } ?? ""
      #expect(report.contains("This seed did not replay here"), "\(reports)")
      #expect(report.contains("The first difference is at job "), "\(reports)")
      #expect(report.contains("the replay ran task "), "\(reports)")
    }

    @Test func aBodyThatFailsFirstInFirstOutFailsBeforeAnyExploring() async {
      let runs = RunCounter()
      let reports = await issuesRecorded {
        await exploreSchedules(.exploring(schedules: 50)) {
          runs.count()
          Issue.record("fails in every order")
        }
      }
      #expect(runs.value == 1)
      #expect(reports.contains { $0.contains("The test fails before any exploring") })
      #expect(!reports.contains { $0.contains("seed 0x") })
      #expect(reports.contains { $0.contains("fails in every order") })
    }

    @Test(.deterministicExecution(.exploring(schedules: 200)))
    func theTraitExploresAPassingTest() async {
      await twoWithdrawalsNeverOverdraw(CheckedAccount.self)
    }

    @Test(.deterministicExecution(.autoAdvance, .exploring(schedules: 200)))
    func theTraitExploresWithAutoAdvance() async {
      await cancelLeavesAConsistentScreen(CancellableViewState.self)
    }

    /// Main-actor jobs keep their order among themselves in every schedule, while tasks off the
    /// main actor do run in different orders from one schedule to the next: exploring does
    /// reorder.
    @Test func mainActorJobsKeepTheirOrderWhileOtherTasksAreReordered() async {
      let otherOrders = Mutex<Set<[Int]>>([])
      await exploreSchedules(.exploring(schedules: 1_000)) { @MainActor in
        let onMain = Recorder<Int>()
        let offMain = Recorder<Int>()
        var tasks: [Task<Void, Never>] = []
        for index in 0..<4 {
          tasks.append(Task { @MainActor in onMain.append(index) })
          tasks.append(Task.detached { offMain.append(index) })
        }
        for task in tasks { await task.value }
        #expect(onMain.values == [0, 1, 2, 3])
        otherOrders.withLock { _ = $0.insert(offMain.values) }
      }
      let seen = otherOrders.withLock { $0 }
      #expect(seen.count >= 2, "orders seen off the main actor: \(seen)")
    }

    @Test(.exitTestOffThePool) func exploringNoScheduleIsRefused() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        _ = DeterministicExecution.Exploration.exploring(schedules: 0)
      }
      expectStandardError(
        of: result, toContain: "exploring(schedules:) needs at least one schedule, got 0")
    }

    /// A bound the exhaustive search cannot take is refused where the exploration is made, not
    /// when a run starts.
    @Test(.exitTestOffThePool) func aBadExhaustiveBoundIsRefusedWhenTheExplorationIsMade() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        _ = DeterministicExecution.Exploration.exploring(strategy: .exhaustive(preemptions: 4))
      }
      expectStandardError(
        of: result,
        toContain: "ExplorationStrategy.exhaustive(preemptions:) takes 0 to 3 preemptions, got 4")
    }

    /// The properties check what they are set to as the factory does.
    @Test(.exitTestOffThePool) func aBadValueSetOnAnExplorationIsRefused() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        var exploration = DeterministicExecution.Exploration.exploring()
        exploration.maxJobsPerSchedule = 0
      }
      expectStandardError(
        of: result,
        toContain: "Exploration.exploring(maxJobsPerSchedule:) needs at least one job, got 0")
      let strategy = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        var exploration = DeterministicExecution.Exploration.exploring()
        exploration.strategy = .pct(depth: 0)
      }
      expectStandardError(
        of: strategy,
        toContain: "ExplorationStrategy.pct(depth:) needs a depth of 1 or more, got 0")
    }
  }
}

@_spi(Experimental) import SchedulersTesting
import Synchronization
import Testing

// Actor reentrancy: a withdrawal checks the balance, awaits the bank's approval, then takes
// the money. While it awaits, the actor runs other calls, so a second withdrawal can pass the
// same check: two withdrawals of 80 from 100 overdraw.

/// The bank that approves withdrawals: one round trip, a suspension point of the account's
/// `withdraw`.
actor WithdrawalApprovals {
  func approve(_ amount: Int) async {
    await Task.yield()  // the round trip to the bank
  }
}

/// The sign-in that comes before the second withdrawal: a few round trips.
actor SignInService {
  func signIn() async {
    for _ in 0..<4 { await Task.yield() }  // the round trips of the sign-in
  }
}

protocol Account: Actor {
  init(balance: Int, approvals: WithdrawalApprovals)
  var balance: Int { get }
  func withdraw(_ amount: Int) async
}

/// The bug: the check before the `await`, the act after it.
actor ReentrantAccount: Account {
  private(set) var balance: Int
  private let approvals: WithdrawalApprovals
  init(balance: Int, approvals: WithdrawalApprovals) {
    self.balance = balance
    self.approvals = approvals
  }

  func withdraw(_ amount: Int) async {
    guard balance >= amount else { return }
    await approvals.approve(amount)
    balance -= amount
  }
}

/// The fix: the check and the act in the same turn of the actor, after the `await`.
actor CheckedAccount: Account {
  private(set) var balance: Int
  private let approvals: WithdrawalApprovals
  init(balance: Int, approvals: WithdrawalApprovals) {
    self.balance = balance
    self.approvals = approvals
  }

  func withdraw(_ amount: Int) async {
    await approvals.approve(amount)
    guard balance >= amount else { return }
    balance -= amount
  }
}

/// Two withdrawals of 80 from 100: one right away, one after signing in.
@Sendable func twoWithdrawalsNeverOverdraw<A: Account>(_: A.Type) async {
  let account = A(balance: 100, approvals: WithdrawalApprovals())
  let signIn = SignInService()
  let atOnce = Task(name: "at once") { await account.withdraw(80) }
  let afterSignIn = Task(name: "after sign-in") {
    await signIn.signIn()
    await account.withdraw(80)
  }
  await atOnce.value
  await afterSignIn.value
  #expect(await account.balance >= 0)
}

extension ExplorationTests {
  @Suite("Exploring schedules: actor reentrancy")
  struct ActorReentrancyExplorationTests {
    @Test(.explorationNeedsTheCustomExecutors)
    func theFirstInFirstOutRunPassesButExploringFindsTheOverdraw() async {
      await exploringFindsAFailingSchedule {
        await twoWithdrawalsNeverOverdraw(ReentrantAccount.self)
      }
    }

    @Test(.explorationNeedsTheCustomExecutors, arguments: comparedStrategies)
    func everyStrategyFindsTheOverdraw(_ strategy: DeterministicExecution.ExplorationStrategy) async
    {
      // A random walk needs more schedules than PCT's default 500 here: it finds the overdraw
      // where PCT's priorities keep one withdrawal waiting through the other's await.
      await exploringFindsAFailingSchedule(
        strategy: strategy, schedules: strategy == .randomWalk ? 5_000 : 500
      ) {
        await twoWithdrawalsNeverOverdraw(ReentrantAccount.self)
      }
    }

    /// On every backend: the report says whether the seed it hands out replayed. On the
    /// custom-executors backend it does; on the others it may not, and then the report says so,
    /// naming the backend, instead of handing out a seed as if it replayed.
    @Test func theReportSaysWhetherItsSeedReplayedOnEveryBackend() async {
      let reports = Mutex<[String]>([])
      // Intermittent: off the custom executors the exploration may find nothing in 500
      // schedules (2 main-queue suites of 19 beside sanitizer builds), and then records no
      // issue; on the custom executors the check below still requires the finding.
      await withKnownIssue("the overdraw, in some schedule", isIntermittent: true) {
        await exploreSchedules(.exploring(schedules: 500)) {
          await twoWithdrawalsNeverOverdraw(ReentrantAccount.self)
        }
      } matching: { issue in
        reports.withLock { $0.append(issue.description) }
        return true
      }
      guard
        let report = reports.withLock({ $0 }).first(where: {
          $0.contains("Exploring schedules found a failing one")
        })
      else {
        // Not every backend finds it within 500 schedules; nothing is handed out then.
        #expect(DeterministicExecution.backend != .customExecutors, "\(reports.withLock { $0 })")
        return
      }
      let replayed = report.contains("The seed was replayed once here")
      let saysItDidNot = report.contains("This seed did not replay here: run again")
      #expect(replayed != saysItDidNot, "\(report)")
      if DeterministicExecution.backend == .customExecutors {
        #expect(replayed, "\(report)")
      } else if saysItDidNot {
        #expect(report.contains("On the \(DeterministicExecution.backend) backend"), "\(report)")
      }
    }

    @Test func checkingAfterTheAwaitPassesTenThousandSchedules() async {
      await exploreSchedules(.exploring(schedules: passingSchedules)) {
        await twoWithdrawalsNeverOverdraw(CheckedAccount.self)
      }
    }
  }
}

import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

// Tests that wait by yielding in a loop, as suites that came from `megaYield` do. Under PCT a
// yield's continuation used to get a fresh random priority, so once a change point had lowered
// the task it waited for, the loop was chosen forever: an exploration that never ended, its
// memory growing. A yield now goes below every other job, and a schedule that runs past
// `Exploration.maxJobsPerSchedule` jobs ends as a finding of its own.

/// A flag one task sets and another polls.
final class Flag: Sendable {
  private let value = Mutex(false)
  var isSet: Bool { value.withLock { $0 } }
  func set() { value.withLock { $0 = true } }
}

/// A counter on an actor, which a loop polls.
actor PolledTally {
  private(set) var count = 0
  func increment() { count += 1 }
}

extension ExplorationTests {
  @Suite("Exploring schedules: loops that wait by yielding")
  struct YieldLoopExplorationTests {
    /// The six-line body: a main-actor loop yields until a detached task sets a flag.
    @Test func aLoopWaitingForAFlagEndsInTenThousandSchedules() async {
      await exploreSchedules(.exploring(schedules: passingSchedules)) {
        @MainActor in
        let flag = Flag()
        let work = Task.detached {
          await Task.yield()
          flag.set()
        }
        while !flag.isSet { await Task.yield() }
        await work.value
      }
    }

    /// A loop polls an actor that another task increments after a round trip of its own.
    @Test func aLoopWaitingForAnActorEndsInTenThousandSchedules() async {
      await exploreSchedules(.exploring(schedules: passingSchedules)) {
        let tally = PolledTally()
        let work = Task {
          await Task.yield()
          await tally.increment()
        }
        while await tally.count < 1 { await Task.yield() }
        await work.value
      }
    }

    /// A loop yields until a task's sleep is registered on the scheduler, then moves time with
    /// the synchronous `advance`, which wakes it.
    @Test func aLoopWaitingForASleepEndsInTenThousandSchedules() async {
      await exploreSchedules(.exploring(schedules: passingSchedules)) {
        let scheduler = DispatchQueue.test
        let woke = Flag()
        let sleeper = Task {
          try await scheduler.sleep(for: .seconds(1))
          woke.set()
        }
        while scheduler.pendingWork.isEmpty { await Task.yield() }
        // The synchronous advance, as a test written without async advance calls it.
        let advance = { scheduler.advance(by: .seconds(1)) }
        advance()
        try? await sleeper.value
        #expect(woke.isSet)
      }
    }

    /// A lost wake-up: the helper sets the flag only if the poller has started, so in the
    /// orders where the helper goes first the poller yields forever. The first-in first-out
    /// run passes; exploring finds the livelock, reports it as one, and its seed replays it
    /// (`exploringFindsAFailingSchedule` checks the replay).
    @Test(.explorationNeedsTheCustomExecutors)
    func aLoopThatLivelocksInSomeOrdersIsReportedWithASeedThatReplays() async {
      let finding = await exploringFindsAFailingSchedule { await lostWakeUp() }
      #expect(
        finding?.reports.contains {
          $0.contains("jobs without finishing") && $0.contains("a loop that waits by yielding")
        } == true, "\(finding?.reports ?? [])")
    }

    /// The same lost wake-up beside a task of no run that keeps yielding, as another test's
    /// poller would: its jobs are taken by each run and run between the run's own, so the seed
    /// must replay whatever they do meanwhile.
    @Test(.explorationNeedsTheCustomExecutors)
    func aLivelockSeedReplaysBesideAnUnrelatedTaskThatKeepsYielding() async {
      let stop = Flag()
      // Not a wait for work: the stand-in for another test's poller, kept busy on purpose.
      let unrelated = Task.detached { while !stop.isSet { await Task.yield() } }
      await exploringFindsAFailingSchedule { await lostWakeUp() }
      stop.set()
      await unrelated.value
    }

    /// A loop that waits for what never comes livelocks in every order, the first-in first-out
    /// one too: the report says so, and the run ends (the loop checks for cancellation).
    @Test func aLoopThatLivelocksInEveryOrderIsReported() async {
      let reports = Mutex<[String]>([])
      await withKnownIssue {
        await exploreSchedules(.exploring(schedules: 10, maxJobsPerSchedule: 2_000)) {
          let never = Flag()
          while !never.isSet && !Task.isCancelled { await Task.yield() }
        }
      } matching: { issue in
        reports.withLock { $0.append(issue.description) }
        return true
      }
      let all = reports.withLock { $0 }.joined(separator: "\n")
      #expect(all.contains("The test fails before any exploring"), "\(all)")
      #expect(all.contains("took 2000 jobs without finishing"), "\(all)")
    }
  }
}

/// A gate the helper passes through, and a door the test goes through: a hop each.
actor Gate {
  func pass() {}
}

/// The test lets the helper go, goes through a door, marks itself started and waits for the
/// flag by yielding; the helper, once through its gate, sets the flag only if the test has
/// started (a lost wake-up: it should set it regardless). First in, first out, the test has
/// started by then; in the orders where the helper comes back first, the test yields forever
/// (until the run stops it and cancels it).
@Sendable func lostWakeUp() async {
  let started = Flag()
  let flag = Flag()
  let gate = Gate()
  let door = Gate()
  let helper = Task(name: "helper") {
    await gate.pass()
    if started.isSet { flag.set() }
  }
  await door.pass()
  started.set()
  while !flag.isSet && !Task.isCancelled { await Task.yield() }
  await helper.value
  #expect(flag.isSet)
}

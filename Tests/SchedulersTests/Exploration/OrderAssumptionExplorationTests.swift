import SchedulersTesting
import Testing

// An order assumption: child tasks append to an actor's array, and the test expects the order
// it started them in. Nothing orders child tasks: the first-in first-out run happens to.

actor ArrivalLog {
  private(set) var arrivals: [String] = []
  func record(_ name: String) { arrivals.append(name) }
}

/// Three downloads, each a child task that records its name when it is done.
@Sendable func downloadAll(_ names: [String]) async -> [String] {
  let log = ArrivalLog()
  await withTaskGroup(of: Void.self) { group in
    for name in names {
      group.addTask { await log.record(name) }
    }
  }
  return await log.arrivals
}

extension ExplorationTests {
  @Suite("Exploring schedules: an order assumption")
  struct OrderAssumptionExplorationTests {
    @Test(.explorationNeedsTheCustomExecutors)
    func theFirstInFirstOutRunPassesButExploringFindsAnotherOrder() async {
      await exploringFindsAFailingSchedule {
        // The bug: the order the tasks were started in.
        #expect(await downloadAll(["a", "b", "c"]) == ["a", "b", "c"])
      }
    }

    @Test func checkingWhatArrivedNotInWhichOrderPassesTenThousandSchedules() async {
      await exploreSchedules(.exploring(schedules: passingSchedules)) {
        // The fix: every download arrived once, in any order.
        #expect(await downloadAll(["a", "b", "c"]).sorted() == ["a", "b", "c"])
      }
    }
  }
}

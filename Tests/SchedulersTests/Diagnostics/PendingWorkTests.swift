import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// The snapshot of pending work, `step()`, and call sites.
@Suite("Pending work and step()")
struct PendingWorkTests {
  @Test func theSnapshotListsDeadlinesIntervalsAndOrder() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    scheduler.schedule(after: start.advanced(by: .seconds(3))) {}
    let timer = scheduler.schedule(after: start.advanced(by: .seconds(1)), interval: .seconds(2)) {}
    let cancelled = scheduler.schedule(
      after: start.advanced(by: .seconds(2)), interval: .seconds(1)
    ) {}
    cancelled.cancel()  // cancelled work leaves the queue at once
    scheduler.advance(by: .milliseconds(500))

    let pending = scheduler.pendingWork
    #expect(
      pending.map(\.deadline) == [start.advanced(by: .seconds(1)), start.advanced(by: .seconds(3))])
    #expect(pending.map(\.dueIn) == [.milliseconds(500), .milliseconds(2_500)])
    #expect(pending.map(\.interval) == [.seconds(2), nil])
    #expect(pending.map(\.isRepeating) == [true, false])
    #expect(
      pending.map(\.description) == [
        "repeating every 2 s, due in 500 ms", "an action, due in 2500 ms",
      ])
    _ = timer
  }

  @MainActor @Test func mainActorSchedulesAndSleepsRecordWhereTheyCameFrom() async throws {
    let scheduler = DispatchQueue.test
    let (_, line) = (
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { @MainActor in }, #line
    )
    let timer = scheduler.schedule(after: scheduler.now, interval: .seconds(5)) { @MainActor in }
    let timerLine = #line - 1
    let pending = scheduler.pendingWork
    #expect(
      pending.map(\.fileID) == [
        "SchedulersTests/PendingWorkTests.swift", "SchedulersTests/PendingWorkTests.swift",
      ])
    #expect(Set(pending.compactMap(\.line)) == [UInt(line), UInt(timerLine)])
    #expect(
      pending.last?.description.hasSuffix(
        "scheduled at SchedulersTests/PendingWorkTests.swift:\(line)") == true)
    _ = timer
  }

  @Test func stepRunsExactlyTheNextActionAndSaysWhatItWas() {
    let scheduler = DispatchQueue.test
    let log = Recorder<String>()
    let start = scheduler.now
    scheduler.schedule(after: start.advanced(by: .seconds(10))) { log.append("late") }
    scheduler.schedule(after: start.advanced(by: .seconds(1))) { log.append("early") }

    let first = scheduler.step()
    #expect(log.values == ["early"])
    #expect(first?.deadline == start.advanced(by: .seconds(1)))
    #expect(first?.dueIn == .zero)
    #expect(scheduler.now == start.advanced(by: .seconds(1)))

    let second = scheduler.step()
    #expect(log.values == ["early", "late"])
    #expect(second?.deadline == start.advanced(by: .seconds(10)))
    #expect(scheduler.step() == nil)
    #expect(scheduler.now == start.advanced(by: .seconds(10)))
  }

  @Test func stepOnARepeatingActionRunsOneOccurrence() {
    let scheduler = DispatchQueue.test
    let ticks = Counter()
    let timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
      ticks.increment()
    }
    #expect(scheduler.step()?.interval == .seconds(1))
    #expect(scheduler.step()?.interval == .seconds(1))
    #expect(ticks.value == 2)
    #expect(scheduler.pendingWork.first?.dueIn == .seconds(1))
    timer.cancel()
  }

  @Test func exhaustivityListsEveryLeftoverAction() {
    let scheduler = DispatchQueue.test
    let (timer, line) = (
      scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { @MainActor in }, #line
    )
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) {}
    withKnownIssue {
      scheduler.expectNoPendingWork()
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        The test scheduler has 2 actions still pending:
          - repeating every 1 s, due in 0 s, scheduled at SchedulersTests/PendingWorkTests.swift:\(line)
          - an action, due in 5 s
        """
      ]
    }
    timer.cancel()
    scheduler.advance(by: .seconds(5))
    #expect(scheduler.expectNoPendingWork())
  }
}

import Schedulers
import SchedulersDeterministic
import Testing

/// The deadlock grace, a heuristic (`Heuristics/DeterministicRun+DeadlockGrace.swift`): a run
/// with nothing runnable and a suspended body waits 100 ms of real time for a job to come back
/// from an actor with an executor of its own, whose jobs it cannot see, before it reports a
/// deadlock. Real time, checked only as a lower bound, which no busy machine can break.
@Suite("The deadlock grace")
struct DeadlockGraceTests {
  @Test(.deterministicExecutionIsAvailable)
  func aDeadlockIsReportedOnlyOnceTheGraceHasRunOut() async {
    let scheduler = DispatchQueue.test
    let clock = ContinuousClock()
    let started = clock.now
    var reportedAfter: Duration?
    await withKnownIssue {
      do {
        try await withDeterministicExecution(scheduler: scheduler) {
          try await scheduler.sleep(for: .seconds(1))  // nobody advances
        }
      } catch {
        reportedAfter = clock.now - started
      }
    } matching: { issue in
      issue.description.contains("did not answer within 0.1 seconds")
    }
    #expect(
      reportedAfter.map { $0 >= .milliseconds(100) } == true, "\(String(describing: reportedAfter))"
    )
  }
}

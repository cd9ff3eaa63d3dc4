import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// Failures found off the test's task (a Dispatch callback, a detached task) fail the test
/// run, naming the test the failing scheduler was created in: written only to standard error,
/// they would let the test pass.
///
/// Such a failure is recorded against the run, not a test, so `withKnownIssue` cannot catch it
/// in this process: each check runs in a child process, whose issues come back to this test.
@Suite("Failures found off the test's task")
struct OffTaskFailureTests {
  @Test(.exitTestOffThePool)
  func anUnimplementedSchedulerUsedFromADispatchCallbackFailsTheRun() async {
    await withKnownIssue {
      await #expect(processExitsWith: .success) {
        let scheduler = DispatchQueue.unimplemented("callback")
        await withCheckedContinuation { continuation in
          DispatchQueue.global().async {
            scheduler.schedule {}
            continuation.resume()
          }
        }
      }
    } matching: { issue in
      issue.description.contains("Unimplemented scheduler 'callback'")
    }
  }

  @Test(.exitTestOffThePool) func anUnimplementedSchedulerUsedFromADetachedTaskFailsTheRun() async {
    await withKnownIssue {
      await #expect(processExitsWith: .success) {
        let scheduler = DispatchQueue.unimplemented("detached")
        await Task.detached { scheduler.schedule {} }.value
      }
    } matching: { issue in
      issue.description.contains("Unimplemented scheduler 'detached'")
    }
  }

  @Test(.exitTestOffThePool) func runHittingItsBoundOnAnotherThreadFailsTheRun() async {
    await withKnownIssue {
      await #expect(processExitsWith: .success) {
        let scheduler = DispatchQueue.test
        let timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {}
        // The child exits as soon as this body returns, so the scheduler must be released by
        // then: alive at exit, its weak-reference side table counts as leaked for the leak
        // sanitizer, which cannot read the pointer to it (the object's header stores it
        // shifted). Resuming from inside the block raced with Dispatch's release of the block
        // and its capture; a group's notification comes after that release.
        let ran = DispatchGroup()
        DispatchQueue.global().async(group: ran) { scheduler.run(maxActions: 5) }
        await withCheckedContinuation { continuation in
          ran.notify(queue: .global()) { continuation.resume() }
        }
        timer.cancel()
      }
    } matching: { issue in
      issue.description.contains("run() stopped after 5 actions")
    }
  }

  /// A child process runs no test, so what names the test is checked here: the scheduler
  /// captures the test it was created in, and a failure off that test's task names it.
  @Test func aFailureOffTheTestsTaskNamesTheTestTheSchedulerWasCreatedIn() {
    let scheduler = DispatchQueue.unimplemented("named")
    #expect(scheduler.testName == "aFailureOffTheTestsTaskNamesTheTestTheSchedulerWasCreatedIn()")
    #expect(
      FailureReporter.offTaskMessage("Used.", testName: scheduler.testName)
        == "Used. (In test aFailureOffTheTestsTaskNamesTheTestTheSchedulerWasCreatedIn(); found off the test's task.)"
    )
  }

  /// On the test's own task the failure is the test's, at the given line, with no note.
  @Test func onTheTestsTaskTheFailureIsTheTestsOwn() {
    withKnownIssue {
      DispatchQueue.unimplemented("here").schedule {}
    } matching: { issue in
      issue.description.contains("Unimplemented scheduler 'here'")
        && !issue.description.contains("found off the test's task")
    }
  }
}

import Dispatch
import Foundation
import Schedulers
import SchedulersTesting
import Testing

@Suite("UnimplementedScheduler")
struct UnimplementedSchedulerTests {
  @Test func anUnusedSchedulerRecordsNothing() {
    _ = DispatchQueue.unimplemented("unused")
  }

  /// combine-schedulers' own test (`testFailure`) expects reading the tolerance to fail the
  /// test, and ported suites keep that expectation.
  @Test func readingTheMinimumToleranceFailsTheTest() {
    let scheduler = RunLoop.unimplemented
    withKnownIssue {
      _ = scheduler.minimumTolerance
    } matching: { issue in
      issue.description.contains("An unimplemented scheduler")
        && issue.description.contains("was used: read minimumTolerance")
    }
  }

  /// Through `AnyScheduler`, the convenience overload reads the tolerance, then schedules:
  /// two issues, as with combine-schedulers. On the scheduler itself, one.
  @Test func aConvenienceCallThroughAnySchedulerRecordsTheReadAndTheUse() {
    let erased = DispatchQueue.unimplemented("erased").eraseToAnyScheduler()
    let uses = Recorder<String>()
    withKnownIssue {
      erased.schedule(after: DispatchQueue.virtualEpoch) {}
    } matching: { issue in
      uses.append(issue.description.components(separatedBy: "was used: ").last ?? "")
      return true
    }
    #expect(
      uses.values == ["read minimumTolerance", "called schedule(after:tolerance:options:_:)"])
  }

  @Test func everyUseFailsTheTestNamingTheSchedulerTheMethodAndTheCreationSite() {
    let (scheduler, line) = (DispatchQueue.unimplemented("feed"), #line)
    let log = Recorder<String>()
    withKnownIssue {
      _ = scheduler.now
      scheduler.schedule { log.append("immediately") }
      scheduler.schedule(after: DispatchQueue.virtualEpoch) { log.append("after") }
      _ = scheduler.schedule(after: DispatchQueue.virtualEpoch, interval: .seconds(1)) {
        log.append("repeating")
      }
    } matching: { issue in
      let text = issue.description
      return text.contains("Unimplemented scheduler 'feed'")
        && text.contains("UnimplementedSchedulerTests.swift:\(line)")
        && issue.sourceLocation?.line == line
    }
    // It then behaved like the immediate scheduler.
    #expect(log.values == ["immediately", "after", "repeating"])
  }

  @Test(arguments: [
    ("read now", 0), ("called schedule(options:_:)", 2),
    ("called schedule(after:tolerance:options:_:)", 3),
    ("called schedule(after:interval:tolerance:options:_:)", 4),
  ])
  func eachMethodIsNamed(use: String, method: Int) {
    let scheduler = DispatchQueue.unimplemented("named")
    withKnownIssue {
      switch method {
      case 0: _ = scheduler.now
      case 2: scheduler.schedule {}
      case 3: scheduler.schedule(after: DispatchQueue.virtualEpoch) {}
      default: _ = scheduler.schedule(after: DispatchQueue.virtualEpoch, interval: .seconds(1)) {}
      }
    } matching: { issue in
      issue.description.contains("was used: \(use)")
    }
  }

  @Test func anUnnamedSchedulerStillSaysWhatItIs() {
    let scheduler: AnySchedulerOf<DispatchQueue> = .unimplemented
    withKnownIssue {
      scheduler.schedule {}
    } matching: { issue in
      issue.description.contains("An unimplemented scheduler")
    }
  }

  /// With no current test (an exit test's body runs in a child process with none), the use
  /// still fails the test run, and the message also goes to standard error; the process goes
  /// on.
  @Test(.exitTestOffThePool) func withNoCurrentTestItFailsTheRunAndPrints() async {
    await withKnownIssue {
      let result = await #expect(
        processExitsWith: .success, observing: [\.standardErrorContent]
      ) {
        let scheduler = DispatchQueue.unimplemented("outside")
        scheduler.schedule {}
      }
      expectStandardError(of: result, toContain: "Unimplemented scheduler 'outside'")
    } matching: { issue in
      issue.description.contains("Unimplemented scheduler 'outside'")
    }
  }
}

@Suite("UnimplementedScheduler's creation site")
struct UnimplementedSchedulerCreationSiteTests {
  /// The `.unimplemented` property cannot know its caller's line: its failure must not name a
  /// line of the library as the creation site.
  @Test func thePropertyDoesNotClaimACreationSite() {
    let scheduler = DispatchQueue.unimplemented
    withKnownIssue {
      _ = scheduler.now
    } matching: { issue in
      !issue.description.contains("created at")
        && issue.description.contains("made with the .unimplemented property")
        && issue.description.contains("was used: read now")
    }
  }
}

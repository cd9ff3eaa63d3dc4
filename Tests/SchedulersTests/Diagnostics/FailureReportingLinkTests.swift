import Testing

@testable import Schedulers
@testable import SchedulersTesting

/// `Schedulers` finds `SchedulersTesting.FailureReporter` by its mangled name at run time.
/// If that link broke (a rename, a move), every failure would go to standard error only, and
/// tests that expect none would still pass: these fail instead.
@Suite("Failures reach the test report")
struct FailureReportingLinkTests {
  @Test func theReporterIsFoundByItsMangledName() {
    #expect(TestFailure.reporter == FailureReporter.self)
    #expect(_mangledTypeName(FailureReporter.self) == TestFailure.reporterTypeName)
  }

  @Test func aFailureRecordedByTheLibraryFailsTheRunningTest() {
    withKnownIssue {
      TestFailure.record(
        "probe from Schedulers", fileID: #fileID, filePath: #filePath, line: #line,
        column: #column)
    } matching: {
      $0.description.contains("probe from Schedulers")
    }
  }
}

#if canImport(XCTest)
  import Dispatch
  import Foundation
  import Schedulers
  import SchedulersTesting
  import XCTest

  /// Failures reach XCTest: XCTest behaviour is what is under test, so this is an XCTest case.
  /// Linux has no `XCTExpectFailure`; the case captures the failures it expects by overriding
  /// `recordFailure` while a check runs, and passes every other failure on.
  final class XCTestReportingTests: XCTestCase {
    private var expectedFailures: [String]?

    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
      expected: Bool
    ) {
      if expectedFailures != nil {
        expectedFailures?.append(
          "\((filePath as NSString).lastPathComponent):\(lineNumber): \(description)")
      } else {
        super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
    }

    private func failures(of body: () -> Void) -> [String] {
      expectedFailures = []
      body()
      defer { expectedFailures = nil }
      return expectedFailures ?? []
    }

    func testAnUnimplementedSchedulerFailsAnXCTestTest() {
      let failures = failures { DispatchQueue.unimplemented("xctest").schedule {} }
      XCTAssertEqual(failures.count, 1)
      XCTAssertTrue(failures.first?.contains("Unimplemented scheduler 'xctest'") == true)
    }

    func testRunHittingItsBoundFailsAnXCTestTest() {
      let scheduler = DispatchQueue.test
      let timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {}
      let failures = failures { scheduler.run(maxActions: 10) }
      timer.cancel()
      XCTAssertEqual(failures.count, 1)
      XCTAssertTrue(failures.first?.contains("run() stopped after 10 actions") == true)
    }

    /// A run's deadlock is a failure of the XCTest test too, at the line that started the run,
    /// with what was pending; the thrown error carries the same text.
    func testADeadlockedRunFailsAnXCTestTestAtTheCall() async {
      let scheduler = DispatchQueue.test
      expectedFailures = []
      let line = #line + 2
      do {
        try await withDeterministicExecution(scheduler: scheduler) {
          try await scheduler.sleep(for: .seconds(1))  // nobody advances
        }
        XCTFail("the run did not throw")
      } catch {
        XCTAssertTrue("\(error)".contains("Pending: 1 on the test scheduler"))
      }
      let failures = expectedFailures ?? []
      expectedFailures = nil
      XCTAssertEqual(failures.count, 1)
      XCTAssertTrue(failures.first?.hasPrefix("XCTestReportingTests.swift:\(line): ") == true)
      XCTAssertTrue(failures.first?.contains("Deterministic run deadlocked") == true)
      XCTAssertTrue(failures.first?.contains("an action, due in 1 s, scheduled at") == true)
    }

    func testCorrectUseRecordsNoFailure() {
      let scheduler = DispatchQueue.test
      let failures = failures {
        scheduler.schedule {}
        scheduler.run()
      }
      XCTAssertEqual(failures, [])
    }
  }
#endif

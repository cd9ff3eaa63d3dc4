#if canImport(XCTest)
  import Dispatch
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
        expectedFailures?.append(description)
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

// What Apple's XCTest has and swift-corelibs-xctest lacks, for the ported files beside this
// one: combine-schedulers' `UnimplementedSchedulerTests` calls `XCTExpectFailure`.
#if !canImport(Darwin)
  import SchedulersTesting
  import XCTest

  /// Runs `failingBlock`, and fails the test unless a scheduler recorded at least one failure
  /// in it; the failures it recorded are expected, so they do not fail the test.
  ///
  /// Only failures that this package's schedulers record are seen (what the ported tests
  /// expect); an `XCTFail` in the block still fails the test.
  func XCTExpectFailure(
    _ failingBlock: () throws -> Void, file: StaticString = #filePath, line: UInt = #line
  ) rethrows {
    let ((), failures) = try ExpectedFailureScope.collecting(failingBlock)
    if failures.isEmpty {
      XCTFail("Expected a failure, and the block recorded none.", file: file, line: line)
    }
  }
#endif

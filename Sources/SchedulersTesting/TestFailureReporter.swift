import Schedulers
import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

#if canImport(XCTest)
  import XCTest
#endif

/// Turns a scheduler's report of misuse into a failure of the running test.
///
/// Inside a Swift Testing test it records an issue (so `withKnownIssue` can expect it).
/// Otherwise it calls `XCTFail`, which fails a running XCTest test and does nothing outside
/// one, and writes the message to standard error, so that a program outside any test sees the
/// message and goes on. `Schedulers` finds this type by name at run time: linking
/// `SchedulersTesting` into a test target is all it takes for a `TestScheduler`'s `run()`
/// bound to fail the test.
public struct TestFailureReporter: TestFailureReporting {
  /// Records `message` as a failure at the given source location.
  ///
  /// ```swift
  /// TestFailureReporter.recordFailure(
  ///   "unexpected", fileID: #fileID, filePath: #filePath, line: #line, column: #column)
  /// ```
  public static func recordFailure(
    _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
      return
    }
    #if canImport(XCTest)
      XCTFail(message, file: filePath, line: line)
    #endif
    var text = "\(fileID):\(line): \(message)\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  }
}

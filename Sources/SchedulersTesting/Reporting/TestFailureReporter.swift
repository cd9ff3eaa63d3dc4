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
/// Inside a Swift Testing test, on the test's task, it records an issue at the given location
/// (so `withKnownIssue` can expect it). Off the test's task (a Dispatch callback, a detached
/// task, another thread), where the testing library cannot tell which test is running, it
/// still records the issue, which fails the test run, and names the test in the message when
/// the failing object knew it. It also calls `XCTFail`, which fails a running XCTest test and
/// does nothing outside one, and writes the message to standard error, so that a program
/// outside any test sees it and goes on. `Schedulers` finds this type by its mangled name at
/// run time (`TestFailure.reporterTypeName`; `_typeByName` reads the image's type records,
/// which hold `package` and internal types as well as public ones): linking `SchedulersTesting`
/// into a test target is all it takes for a `TestScheduler`'s `run()` bound to fail the test.
package struct FailureReporter: TestFailureReporting {
  package static func recordFailure(
    _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt,
    testName: String? = nil
  ) {
    if let collector = ExpectedFailureScope.current {
      collector.append(message)
      return
    }
    let location = SourceLocation(
      fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    if Test.current != nil {
      Issue.record(Comment(rawValue: message), sourceLocation: location)
      return
    }
    let text = offTaskMessage(message, testName: testName)
    // Without a current test the testing library records the issue against the run, which
    // then fails; outside a Swift Testing run it drops it, and XCTest takes over.
    Issue.record(Comment(rawValue: text), sourceLocation: location)
    #if canImport(XCTest)
      XCTFail(text, file: filePath, line: line)
    #endif
    var output = "\(fileID):\(line): \(text)\n"
    output.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  }

  /// A failure found off the test's task, with the test it belongs to when that is known.
  package static func offTaskMessage(_ message: String, testName: String?) -> String {
    testName.map { "\(message) (In test \($0); found off the test's task.)" } ?? message
  }

  package static func currentTestName() -> String? {
    Test.current.map { $0.displayName ?? $0.name }
  }
}

/// Records a failure of the running test: public in 0.1.0 only so that `Schedulers` could find
/// it by name, which the package's own `package` type now does.
///
/// ```swift
/// Issue.record("unexpected", sourceLocation: SourceLocation())  // what to call instead
/// ```
@available(
  *, deprecated,
  message: "plumbing of the package's own; record a failure with Swift Testing's Issue.record"
)
public struct TestFailureReporter {
  /// Records `message` as a failure at the given source location, as the package's schedulers
  /// do: an issue in Swift Testing, `XCTFail` in XCTest, and a line on standard error.
  ///
  /// ```swift
  /// Issue.record("unexpected", sourceLocation: SourceLocation())  // what to call instead
  /// ```
  @available(
    *, deprecated,
    message: "plumbing of the package's own; record a failure with Swift Testing's Issue.record"
  )
  public static func recordFailure(
    _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    FailureReporter.recordFailure(
      message, fileID: fileID, filePath: filePath, line: line, column: column, testName: nil)
  }
}

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reports a misuse of a test scheduler: as a test failure when `SchedulersTesting` is linked
/// into the process, otherwise on standard error. Never crashes.
@usableFromInline
package enum TestFailure {
  /// The mangled name of `SchedulersTesting.FailureReporter`, a `package` type: the runtime's
  /// type records hold every nominal type of an image, whatever its access level.
  static let reporterTypeName = "17SchedulersTesting15FailureReporterV"

  // Looked up once: test schedulers read it when they are created (to name their test).
  static let reporter: (any TestFailureReporting.Type)? =
    _typeByName(reporterTypeName) as? any TestFailureReporting.Type

  /// The name of the test running on the current task, when `SchedulersTesting` is linked and
  /// a test library knows it. Objects that may fail later, on another thread, capture it when
  /// they are created, so that the failure names its test.
  package static var currentTestName: String? { reporter?.currentTestName() }

  @usableFromInline
  package static func record(
    _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt,
    testName: String? = nil
  ) {
    if let reporter {
      reporter.recordFailure(
        message, fileID: fileID, filePath: filePath, line: line, column: column,
        testName: testName)
    } else {
      writeToStandardError("\(fileID):\(line): \(message)\n")
    }
  }

  package static func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      _ = write(2, bytes.baseAddress, bytes.count)
    }
  }
}

/// An identifier of the calling thread, to tell a re-entrant call from a concurrent one.
@usableFromInline
func currentThreadID() -> UInt {
  #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
  #elseif canImport(Glibc)
    return UInt(pthread_self())
  #else
    return UInt(bitPattern: Int(bitPattern: pthread_self()))
  #endif
}

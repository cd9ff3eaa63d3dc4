/// A hook that a test-support module implements to turn a message into a test failure.
///
/// `Schedulers` must not import XCTest or Testing, yet a ``TestScheduler`` whose `run()` hits
/// its bound should fail the running test. `SchedulersTesting` declares a type conforming to
/// this protocol; ``TestFailure`` finds it by name at run time, which works with the static
/// linking of test bundles and needs no global mutable state.
package protocol TestFailureReporting: SendableMetatype {
  /// Records a failure at the given location. `testName` is the test that was running where
  /// the failing object was created, for a failure found off that test's task.
  static func recordFailure(
    _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt,
    testName: String?)

  /// The name of the test running on the current task, if a test library knows it.
  static func currentTestName() -> String?
}

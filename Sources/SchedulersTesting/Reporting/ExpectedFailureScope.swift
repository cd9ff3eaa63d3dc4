import Synchronization

/// Collects, instead of reporting, the failures that schedulers record while a body runs.
///
/// For test libraries that lack a way to expect a failure: swift-corelibs-xctest has no
/// `XCTExpectFailure`, which combine-schedulers' own `UnimplementedSchedulerTests` calls.
/// The ported suite (`Tests/Neighbours/CombineStandIn`) gives Linux that function on top of
/// this scope. Swift Testing users have `withKnownIssue`, and Apple's XCTest has
/// `XCTExpectFailure`, so this is not public.
package enum ExpectedFailureScope {
  /// The messages recorded while `body` ran on this task or thread (or on tasks it started
  /// and that inherit its task-local values).
  package static func collecting<R>(_ body: () throws -> R) rethrows -> (R, [String]) {
    let collector = Collector()
    let result = try $current.withValue(collector, operation: body)
    return (result, collector.messages)
  }

  @TaskLocal static var current: Collector?

  final class Collector: Sendable {
    private let recorded = Mutex<[String]>([])
    func append(_ message: String) { recorded.withLock { $0.append(message) } }
    var messages: [String] { recorded.withLock { $0 } }
  }
}

import Schedulers
import Synchronization

/// Says, once per process, that a feature of deterministic execution is off here and why: a
/// fallback is never silent. Written to standard error, which the test report shows, the first
/// time a run meets the fallback.
package enum FallbackWarnings {
  private static let said = Mutex<Set<String>>([])

  /// Writes `text` the first time `id` is warned about in this process.
  package static func warnOnce(_ id: String, _ text: String) {
    guard said.withLock({ $0.insert(id).inserted }) else { return }
    TestFailure.writeToStandardError("warning: deterministic execution: \(text)\n")
  }
}

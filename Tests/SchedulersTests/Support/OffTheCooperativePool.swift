import Dispatch
import Testing

/// Runs a CPU-heavy test (a fuzzer, a stress test, a million chained actions) off Swift's
/// cooperative pool, so that it cannot hold one of the pool's threads for seconds.
///
/// The pool has one thread per core, and Swift Testing queues every test on it at once: on a
/// two-core machine, two such tests starved every other test for as long as they ran (seen
/// under the thread sanitizer beside two CPU burners: tests that do nothing passed after
/// 40-70 s, and a task a test started did not run within `waitForPendingWork`'s 60 s). Off the
/// pool, the kernel shares the cores between them and the rest by time slices instead.
///
/// The test's body and its child tasks (task groups, `async let`, parameterized cases) run on
/// one serial queue; unstructured tasks it starts do not inherit the preference, and run on the
/// pool as before. Not for tests that start a deterministic run: a run driven in place would
/// hold the queue, and every heavy test behind it, for the whole run.
struct OffTheCooperativePoolTrait: TestTrait, SuiteTrait, TestScoping {
  var isRecursive: Bool { true }

  /// An `OffThePoolExecutor` of its own, or `nil` for the shared one. Untyped: task executors are
  /// newer than the package's floor on Apple platforms.
  private let executor: (any Sendable)?

  init() { executor = nil }

  /// Runs on `executor` instead of the shared queue: the trait's own test, which would otherwise
  /// wait behind every heavy test for a millisecond's work.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  init(executor: OffThePoolExecutor) { self.executor = executor }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // Task executors came with the 18 generation of Apple's OSes; below it, the pool as before.
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
      return try await function()
    }
    let executor = executor as? OffThePoolExecutor ?? .shared
    try await withTaskExecutorPreference(executor) { try await function() }
  }
}

extension Trait where Self == OffTheCooperativePoolTrait {
  /// Runs the test's jobs on threads of their own, not on the cooperative pool.
  static var offTheCooperativePool: Self { Self() }
}

/// Runs every job of these tests, one at a time, on one serial queue: one thread beside the
/// pool's, whichever heavy tests are running. (A serial queue runs on Dispatch's overcommit
/// threads, which it adds beyond one per core; the global queues, the cooperative pool's on
/// Linux, do not.) A queue per job was worse than the pool: forty test cases of the fuzzers at
/// once, each on a thread of its own, left the pool's two threads a fraction of the cores.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class OffThePoolExecutor: TaskExecutor, Sendable {
  static let shared = OffThePoolExecutor(label: "off-the-cooperative-pool")
  let queue: DispatchQueue
  private let key = DispatchSpecificKey<Bool>()
  init(label: String) {
    queue = DispatchQueue(label: label)
    queue.setSpecific(key: key, value: true)
  }

  /// Whether the calling code runs on the queue.
  var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}

@Suite("Heavy tests off the cooperative pool")
struct OffTheCooperativePoolTests {
  /// The test's body and its child tasks run on the one queue, not on the pool; an
  /// unstructured task does not inherit a task executor preference, and runs on the pool. On a
  /// queue of the test's own: on the shared one, a millisecond's work waits behind every heavy
  /// test (docs/performance.md).
  @Test func theBodyAndItsChildTasksRunOnTheQueue() async throws {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    let executor = OffThePoolExecutor(label: "this test's own")
    let test = try #require(Test.current)
    try await OffTheCooperativePoolTrait(executor: executor).provideScope(
      for: test, testCase: Test.Case.current
    ) {
      #expect(executor.isCurrent)
      async let child = executor.isCurrent
      #expect(await child)
      #expect(await !Task { executor.isCurrent }.value)
    }
  }
}

import Schedulers
import Synchronization

/// A schedule-throughput workload: it performs `size` scheduled actions and returns how many
/// ran, so the harness can refuse a figure measured on work that did not happen.
public struct Workload: Sendable {
  /// A short name for tables and JSON, such as `test-random`.
  public let name: String
  /// What the workload does, in one line.
  public let summary: String
  /// Runs the workload once with `size` actions and returns the number of actions that ran.
  public let run: @Sendable (_ size: Int) async -> Int
  /// The same, for workloads that need no concurrency: measured without any `await`, so a
  /// program can run them from a synchronous `main` (valgrind cannot follow an async one).
  public let runSynchronously: (@Sendable (_ size: Int) -> Int)?
  /// How many actions must run for a given size (all of them, unless the workload cancels
  /// some on purpose).
  public let expectedCount: @Sendable (_ size: Int) -> Int
  /// The largest size worth running (one task per action makes a million of them too heavy).
  public let largestSize: Int
  /// Whether it runs main-actor code: the program must then serve the main queue while it
  /// measures (as an app's main thread does).
  public var needsMainQueue = false

  /// Creates a synchronous workload.
  public init(
    name: String, summary: String, largestSize: Int = .max,
    expectedCount: @escaping @Sendable (Int) -> Int = { $0 },
    run: @escaping @Sendable (_ size: Int) -> Int
  ) {
    self.name = name
    self.summary = summary
    self.largestSize = largestSize
    self.expectedCount = expectedCount
    self.run = { size in run(size) }
    self.runSynchronously = run
  }

  /// Creates an asynchronous workload.
  public init(
    name: String, summary: String, largestSize: Int = .max,
    expectedCount: @escaping @Sendable (Int) -> Int = { $0 },
    runAsync: @escaping @Sendable (_ size: Int) async -> Int
  ) {
    self.name = name
    self.summary = summary
    self.largestSize = largestSize
    self.expectedCount = expectedCount
    self.run = runAsync
    self.runSynchronously = nil
  }

  /// The deadlines every random-deadline workload uses, in nanoseconds from the start: seeded,
  /// so each run and each peer schedules the same instants, spread over `count` milliseconds
  /// with many collisions.
  /// (`SplitMix64`: the generator of the test scheduler's shuffles, copied here.)
  public static func randomOffsets(count: Int, seed: UInt64 = 0x5EED) -> [Int] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in Int(generator.next() % UInt64(max(count, 1))) * 1_000_000 }
  }

  /// The instant just past every random deadline of `count` actions, in nanoseconds.
  public static func horizon(count: Int) -> Int { count * 1_000_000 }
}

/// Counts actions. `@unchecked Sendable`: each synchronous workload's actions run one at a
/// time on the advancing thread, and the count is read only after a synchronising step (an
/// advance returning, a group wait).
final class Tally: @unchecked Sendable {
  var count = 0
  init() {}
}

/// Counts actions that run concurrently (async workloads).
final class AtomicTally: Sendable {
  private let storage = Atomic(0)
  init() {}
  func increment() { storage.add(1, ordering: .relaxed) }
  var count: Int { storage.load(ordering: .acquiring) }
}

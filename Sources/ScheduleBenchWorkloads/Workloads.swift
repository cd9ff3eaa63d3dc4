import Dispatch
import Schedulers

/// A schedule-throughput workload: it performs `size` scheduled actions and returns how many
/// ran, so the harness can refuse a figure measured on work that did not happen.
public struct Workload: Sendable {
  /// A short name for tables and JSON, such as `test-random`.
  public let name: String
  /// What the workload does, in one line.
  public let summary: String
  /// Runs the workload once with `size` actions and returns the number of actions that ran.
  public let run: @Sendable (_ size: Int) -> Int

  /// Creates a workload.
  public init(name: String, summary: String, run: @escaping @Sendable (_ size: Int) -> Int) {
    self.name = name
    self.summary = summary
    self.run = run
  }
}

/// Counts actions. `@unchecked Sendable`: each workload's actions run one at a time, and the
/// count is read only after a synchronising step (an advance returning, a group wait).
final class Tally: @unchecked Sendable {
  var count = 0
}

extension Workload {
  /// The deadlines every random-deadline workload uses: seeded, so each run and each peer
  /// schedules the same instants, spread over `size` milliseconds with many collisions.
  public static func randomOffsets(count: Int, seed: UInt64 = 0x5EED) -> [Int] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in Int(generator.next() % UInt64(max(count, 1))) * 1_000_000 }
  }

  /// Schedules `size` actions on `scheduler` at seeded random deadlines spread over `size`
  /// milliseconds, then calls `advance` to run them, and returns how many ran.
  public static func randomDeadlines<S: Scheduler>(
    size: Int, on scheduler: S, advancePastAll advance: () -> Void
  ) -> Int where S.SchedulerTimeType == DispatchQueue.SchedulerTimeType {
    let offsets = randomOffsets(count: size)
    let tally = Tally()
    let start = scheduler.now
    for offset in offsets {
      scheduler.schedule(after: start.advanced(by: .nanoseconds(offset))) { tally.count += 1 }
    }
    advance()
    return tally.count
  }

  /// The package's test scheduler: schedule `size` actions at random deadlines, then advance
  /// past all of them.
  public static let testSchedulerRandom = Workload(
    name: "test-random",
    summary: "TestScheduler: schedule n actions at seeded random deadlines, advance past all"
  ) { size in
    let scheduler = DispatchQueue.test
    return randomDeadlines(size: size, on: scheduler) {
      scheduler.advance(by: .nanoseconds(size * 1_000_000))
    }
  }

  /// The same through `AnySchedulerOf<DispatchQueue>`.
  public static let anyTestSchedulerRandom = Workload(
    name: "any-test-random",
    summary: "AnyScheduler over TestScheduler: the same random-deadline workload"
  ) { size in
    let test = DispatchQueue.test
    return randomDeadlines(size: size, on: test.eraseToAnyScheduler()) {
      test.advance(by: .nanoseconds(size * 1_000_000))
    }
  }

  /// The immediate scheduler: `size` actions, each run at once.
  public static let immediate = Workload(
    name: "immediate",
    summary: "ImmediateScheduler: schedule n actions, each runs at once"
  ) { size in
    let scheduler = DispatchQueue.immediate
    let tally = Tally()
    let date = scheduler.now
    for _ in 0..<size {
      scheduler.schedule(after: date) { tally.count += 1 }
    }
    return tally.count
  }

  /// A serial dispatch queue: `size` actions, then wait for the queue to drain.
  public static let dispatchSerial = Workload(
    name: "dispatch-serial",
    summary: "DispatchQueue (serial): schedule n actions, wait until all ran"
  ) { size in
    let queue = DispatchQueue(label: "schedule-bench.serial")
    let tally = Tally()
    let group = DispatchGroup()
    let options = DispatchQueue.SchedulerOptions(group: group)
    for _ in 0..<size {
      queue.schedule(options: options) { tally.count += 1 }
    }
    group.wait()
    return tally.count
  }

  /// The lower bound: a minimal locked binary heap of closures keyed by (deadline, sequence),
  /// doing the random-deadline workload. The test scheduler is reported as a ratio to it.
  public static let referenceHeap = Workload(
    name: "reference-heap",
    summary: "Reference: a minimal locked binary heap of closures, random deadlines"
  ) { size in
    let offsets = randomOffsets(count: size)
    let heap = ReferenceHeap()
    let tally = Tally()
    for offset in offsets {
      heap.insert(deadline: offset) { tally.count += 1 }
    }
    heap.drain(through: size * 1_000_000)
    return tally.count
  }

  /// Every workload of `schedule-bench`, in table order.
  public static let all: [Workload] = [
    testSchedulerRandom, anyTestSchedulerRandom, immediate, dispatchSerial, referenceHeap,
  ]
}

/// The SplitMix64 generator: tiny, fast and seeded, so every run schedules the same deadlines.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator with `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z &>> 31)
  }
}

import Dispatch
import Schedulers
import SchedulersTesting

/// This package's workloads. The Benchmarks package runs the peers' versions of the same
/// workloads (same sizes, same seeded deadlines) and compares.
extension Workload {
  /// Schedules `size` actions on `scheduler` at seeded random deadlines spread over `size`
  /// milliseconds, then calls `advance` to run them, and returns how many ran.
  static func randomDeadlines<S: Scheduler>(
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
      scheduler.advance(by: .nanoseconds(horizon(count: size)))
    }
  }

  /// The same through `AnySchedulerOf<DispatchQueue>`.
  public static let anyTestSchedulerRandom = Workload(
    name: "any-test-random",
    summary: "AnyScheduler over TestScheduler: the same random-deadline workload"
  ) { size in
    let test = DispatchQueue.test
    return randomDeadlines(size: size, on: test.eraseToAnyScheduler()) {
      test.advance(by: .nanoseconds(horizon(count: size)))
    }
  }

  /// Repeating schedules at random deadlines; every other one is cancelled before the
  /// advance. The interval is longer than the advance, so each survivor runs once.
  public static let testSchedulerCancelHalf = Workload(
    name: "test-cancel-half",
    summary: "TestScheduler: n repeating schedules at random deadlines, half cancelled, advance",
    expectedCount: { $0 / 2 }
  ) { size in
    let scheduler = DispatchQueue.test
    let tally = Tally()
    let start = scheduler.now
    let interval = DispatchQueue.SchedulerTimeType.Stride.nanoseconds(2 * horizon(count: size))
    var kept: [any Cancellable] = []
    kept.reserveCapacity(size / 2)
    for (index, offset) in randomOffsets(count: size).enumerated() {
      let cancellable = scheduler.schedule(
        after: start.advanced(by: .nanoseconds(offset)), interval: interval
      ) { tally.count += 1 }
      if index % 2 == 0 { cancellable.cancel() } else { kept.append(cancellable) }
    }
    scheduler.advance(by: .nanoseconds(horizon(count: size)))
    for cancellable in kept { cancellable.cancel() }
    return tally.count
  }

  /// A chain: each action schedules its successor 1 ms later (a queue of one, the hot path).
  public static let testSchedulerChain = Workload(
    name: "test-chain",
    summary: "TestScheduler: each action schedules the next 1 ms later; one advance runs all"
  ) { size in
    let scheduler = DispatchQueue.test
    let tally = Tally()
    @Sendable func step() {
      tally.count += 1
      if tally.count < size {
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1)), step)
      }
    }
    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1)), step)
    scheduler.advance(by: .nanoseconds(horizon(count: size)))
    return tally.count
  }

  /// `size` actions due at the same instant (the first-in first-out path).
  public static let testSchedulerSameInstant = Workload(
    name: "test-same-instant",
    summary: "TestScheduler: n actions at the same instant, one advance"
  ) { size in
    let scheduler = DispatchQueue.test
    let tally = Tally()
    let date = scheduler.now.advanced(by: .milliseconds(1))
    for _ in 0..<size {
      scheduler.schedule(after: date) { tally.count += 1 }
    }
    scheduler.advance(by: .milliseconds(1))
    return tally.count
  }

  /// The immediate scheduler: `size` actions, each run at once.
  public static let immediate = Workload(
    name: "immediate",
    summary: "VirtualImmediateScheduler: schedule n actions, each runs at once"
  ) { size in
    let scheduler = DispatchQueue.immediate
    let tally = Tally()
    let date = scheduler.now
    for _ in 0..<size {
      scheduler.schedule(after: date) { tally.count += 1 }
    }
    return tally.count
  }

  /// `size` tasks sleeping on the test scheduler until random deadlines; once all are
  /// registered, one advance past all of them; returns when every task has woken.
  ///
  /// The tasks are unstructured on purpose, here and in the peers' version: a task group
  /// removes each finished child from a list, which costs O(n) per child in Swift 6.3's
  /// runtime (`TaskGroup::removeChildTask` took 82% of a 30k-sleeper run under `perf`), and
  /// would measure the group rather than the scheduler.
  public static let testSchedulerSleepers = Workload(
    name: "test-sleepers",
    summary: "TestScheduler: n tasks sleep until random deadlines, one advance wakes all",
    largestSize: 100_000
  ) { (size: Int) async -> Int in
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let woken = AtomicTally()
    let sleepers = randomOffsets(count: size).map { offset in
      Task {
        try? await scheduler.sleep(until: start.advanced(by: .nanoseconds(offset)), tolerance: nil)
        woken.increment()
      }
    }
    // Waits, untimed, until every sleeper whose deadline is ahead has registered (those at
    // offset zero return at once). It was a loop of `Task.yield()`, which cost 5 s of a 10k
    // run's wall time in system calls; tests use deterministic execution instead.
    let ahead = randomOffsets(count: size).filter { $0 > 0 }.count
    try? await scheduler.waitForPendingWork(count: ahead, timeout: .seconds(600))
    await scheduler.advance(by: .nanoseconds(horizon(count: size)))
    for sleeper in sleepers { await sleeper.value }
    return woken.count
  }

  /// The same sleepers inside a deterministic run: the advance itself waits until every task
  /// has registered its sleep, then wakes them all and waits until each has finished.
  public static let deterministicSleepers = Workload(
    name: "deterministic-sleepers",
    summary: "withDeterministicExecution: n tasks sleep until random deadlines, one advance",
    largestSize: 100_000
  ) { (size: Int) async -> Int in
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let woken = AtomicTally()
    try? await withDeterministicExecution(scheduler: scheduler) {
      let sleepers = randomOffsets(count: size).map { offset in
        Task {
          try? await scheduler.sleep(
            until: start.advanced(by: .nanoseconds(offset)), tolerance: nil)
          woken.increment()
        }
      }
      await scheduler.advance(by: .nanoseconds(horizon(count: size)))
      for sleeper in sleepers { await sleeper.value }
    }
    return woken.count
  }

  /// The callback form: a `Debouncer` on the test scheduler, `size` calls spaced wider than its
  /// interval, so each action runs. No tasks, no deterministic run: the synchronous path.
  public static let debouncer = Workload(
    name: "debouncer",
    summary: "Debouncer (callback) on TestScheduler: n calls, each runs, synchronous advance"
  ) { size in
    let scheduler = DispatchQueue.test
    let debouncer = Debouncer(for: .milliseconds(1), scheduler: scheduler)
    let tally = Tally()
    for _ in 0..<size {
      debouncer.call { tally.count += 1 }
      scheduler.advance(by: .milliseconds(2))
    }
    return tally.count
  }

  /// A serial dispatch queue through this package's `Scheduler` conformance: `size` actions in
  /// one dispatch group, then wait for the queue to drain.
  public static let dispatchSerial = Workload(
    name: "dispatch-serial",
    summary: "DispatchQueue (serial) as a Scheduler: schedule n actions, wait until all ran"
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

  /// The same with raw `DispatchQueue.async`, the floor for the dispatch scheduler.
  public static let dispatchRaw = Workload(
    name: "dispatch-raw",
    summary: "DispatchQueue.async (serial), no scheduler: n actions, wait until all ran"
  ) { size in
    let queue = DispatchQueue(label: "schedule-bench.raw")
    let tally = Tally()
    let group = DispatchGroup()
    for _ in 0..<size {
      queue.async(group: group) { tally.count += 1 }
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
    heap.drain(through: horizon(count: size))
    return tally.count
  }

  /// Every workload of `schedule-bench`, in table order.
  public static let all: [Workload] = [
    testSchedulerRandom, anyTestSchedulerRandom, testSchedulerCancelHalf, testSchedulerChain,
    testSchedulerSameInstant, immediate, testSchedulerSleepers, deterministicSleepers, debounce,
    delay, throttle, collect, measureInterval, timeout, debouncer, actorPingPong,
    deterministicActorPingPong, mainActorPingPong,
    deterministicMainActorPingPong,
    dispatchSerial, dispatchRaw, referenceHeap,
  ]
}

extension Workload {
  /// Schedules `size` empty one-shot actions (closures without captures, so no context is
  /// allocated) at random deadlines on a test scheduler, and returns it with the work pending.
  public static func pendingOnTestScheduler(size: Int) -> RetainedWork {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    for offset in randomOffsets(count: size) {
      scheduler.schedule(after: start.advanced(by: .nanoseconds(offset))) {}
    }
    return RetainedWork(owner: scheduler)
  }

  /// The same on the reference heap.
  public static func pendingOnReferenceHeap(size: Int) -> RetainedWork {
    let heap = ReferenceHeap()
    for offset in randomOffsets(count: size) { heap.insert(deadline: offset) {} }
    return RetainedWork(owner: heap)
  }
}

import Dispatch
import Schedulers
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Concurrency stress", .offTheCooperativePool)
struct ConcurrencyStressTests {
  /// Actions per scheduling thread: 10,000 in CI; `STRESS_ACTIONS=100000` for the full run.
  static var actionsPerThread: Int {
    getenv("STRESS_ACTIONS").flatMap { Int(String(cString: $0)) } ?? 10_000
  }
  static let threads = 8

  @Test func eightThreadsScheduleAndCancelWhileAnotherAdvances() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let perThread = Self.actionsPerThread
    let ran = Mutex([[Int]](repeating: [], count: Self.threads))
    let cancelledRan = Atomic(0)
    let finishedThreads = Atomic(0)

    DispatchQueue.concurrentPerform(iterations: Self.threads + 1) { worker in
      if worker == Self.threads {
        // The advancer: moves time while the others schedule and cancel.
        while finishedThreads.load(ordering: .acquiring) < Self.threads {
          scheduler.advance(by: .milliseconds(1))
        }
        return
      }
      var pendingCancels: [any Cancellable] = []
      for index in 0..<perThread {
        if index % 4 == 3 {
          // Far in the future, so the advancer cannot reach it before it is cancelled.
          pendingCancels.append(
            scheduler.scheduleCancellable(
              after: start.advanced(by: .seconds(1_000_000)), tolerance: .zero, options: nil
            ) { cancelledRan.add(1, ordering: .relaxed) })
          if pendingCancels.count == 16 {
            pendingCancels.forEach { $0.cancel() }
            pendingCancels.removeAll()
          }
        } else {
          // Fifty instants shared by many actions of this thread: FIFO must hold among them.
          scheduler.schedule(after: start.advanced(by: .milliseconds(index % 50))) {
            ran.withLock { $0[worker].append(index) }
          }
        }
      }
      pendingCancels.forEach { $0.cancel() }
      finishedThreads.add(1, ordering: .releasing)
    }
    scheduler.run(maxActions: Self.threads * perThread)  // whatever the advancer did not reach

    #expect(cancelledRan.load(ordering: .relaxed) == 0)
    #expect(scheduler.pendingActionCount == 0)
    let expected = (0..<perThread).filter { $0 % 4 != 3 }
    for (worker, indices) in ran.withLock({ $0 }).enumerated() {
      // Booleans, not arrays: a failure must not print hundreds of thousands of indices.
      let exactlyOnce = indices.sorted() == expected
      #expect(
        exactlyOnce, "thread \(worker): \(indices.count) ran, \(expected.count) expected once each")
      let inOrder = Dictionary(grouping: indices) { $0 % 50 }.values.allSatisfy {
        $0 == $0.sorted()
      }
      #expect(inOrder, "thread \(worker): same-instant actions in scheduling order")
    }
  }

  @Test(arguments: [false, true])
  func eightThreadsOnADispatchQueueRunEveryActionOnceInOrder(erased: Bool) {
    let queue = DispatchQueue(label: "stress")
    let scheduler: AnySchedulerOf<DispatchQueue> = queue.eraseToAnyScheduler()
    let perThread = Self.actionsPerThread
    let ran = Mutex([[Int]](repeating: [], count: Self.threads))
    let group = DispatchGroup()
    let options = DispatchQueue.SchedulerOptions(group: group)
    DispatchQueue.concurrentPerform(iterations: Self.threads) { worker in
      for index in 0..<perThread {
        let action: @Sendable () -> Void = { ran.withLock { $0[worker].append(index) } }
        if erased {
          scheduler.schedule(options: options, action)
        } else {
          queue.schedule(options: options, action)
        }
      }
    }
    #expect(group.wait(timeout: .now() + 30) == .success)
    for (worker, indices) in ran.withLock({ $0 }).enumerated() {
      let allOnceInOrder = indices == Array(0..<perThread)
      #expect(allOnceInOrder, "thread \(worker): \(indices.count) ran of \(perThread), in order")
    }
  }
}

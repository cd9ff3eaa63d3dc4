import Dispatch
import Synchronization
import Testing

/// Waits for a test's exit tests (`#expect(processExitsWith:)`) on threads of their own, not on
/// Swift's cooperative pool, and lets two such tests run at a time.
///
/// Swift Testing 6.3 reads an exit test's event channel to its end with a blocking read, on the
/// thread of the task that awaits the exit test: the thread is camped there until the child
/// process ends (swiftlang/swift-testing pull request 1782, merged after 6.3, reads it a line at
/// a time instead). On a two-core machine the pool has two threads, so two exit tests at once
/// stop every other test of the process for as long as their children run, which under the
/// thread sanitizer on a busy machine is seconds (docs/performance.md, "The thread sanitizer's
/// suite on a busy machine", has the measurements).
///
/// Under this trait the test's task and its child tasks (the exit test's handler runs in them)
/// prefer an executor that runs each job on a queue of its own, which Dispatch runs on an
/// overcommit thread, beside the pool's. At most two such tests run at once; the others wait,
/// suspended, so that the suite's children do not all start together.
struct ExitTestOffThePoolTrait: TestTrait, TestScoping {
  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // Task executors came with the 18 generation of Apple's OSes; below it, the pool as before.
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
      return try await function()
    }
    await ExitTestSlots.shared.acquire()
    defer { ExitTestSlots.shared.release() }
    try await withTaskExecutorPreference(QueuePerJobExecutor.shared) { try await function() }
  }
}

extension Trait where Self == ExitTestOffThePoolTrait {
  /// Waits for the test's exit tests off the cooperative pool, two such tests at a time.
  static var exitTestOffThePool: Self { Self() }
}

/// Runs each job on a serial queue made for it: a thread of Dispatch's overcommit pool, which
/// grows beyond one thread per core, so that a job that blocks holds no thread another test needs.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class QueuePerJobExecutor: TaskExecutor, Sendable {
  static let shared = QueuePerJobExecutor()
  private static let key = DispatchSpecificKey<Bool>()

  /// Whether the calling code runs on one of the executor's queues.
  static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let queue = DispatchQueue(label: "exit-test-off-the-pool")
    queue.setSpecific(key: Self.key, value: true)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}

/// Lets a given number of exit tests run at once; the others wait, suspended, in order.
final class ExitTestSlots: Sendable {
  static let shared = ExitTestSlots(count: 2)

  private struct State {
    var free: Int
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state: Mutex<State>

  init(count: Int) { state = Mutex(State(free: count)) }

  /// Takes a slot if one is free, without waiting.
  func tryAcquire() -> Bool {
    state.withLock { state in
      guard state.free > 0 else { return false }
      state.free -= 1
      return true
    }
  }

  /// Takes a slot, waiting in line for one if none is free.
  func acquire() async {
    if tryAcquire() { return }
    await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool in
        guard state.free > 0 else {
          state.waiters.append(continuation)
          return false
        }
        state.free -= 1
        return true
      }
      if now { continuation.resume() }
    }
  }

  /// Hands the slot to the next waiter, if any.
  func release() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.waiters.isEmpty else {
        state.free += 1
        return nil
      }
      return state.waiters.removeFirst()
    }
    next?.resume()
  }
}

@Suite("Exit tests off the cooperative pool")
struct ExitTestOffThePoolTests {
  /// The test's body and its child tasks, where Swift Testing's handler of an exit test waits
  /// for the child process, run on queues of the executor's, not on the pool.
  @Test(.exitTestOffThePool) func theBodyAndItsChildTasksRunOffThePool() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    #expect(QueuePerJobExecutor.isCurrent)
    async let child = QueuePerJobExecutor.isCurrent
    #expect(await child)
    #expect(await !Task { QueuePerJobExecutor.isCurrent }.value)
  }

  @Test func twoSlotsAtOnceThenOneForEachRelease() async {
    let slots = ExitTestSlots(count: 2)
    #expect(slots.tryAcquire())
    #expect(slots.tryAcquire())
    #expect(!slots.tryAcquire())
    slots.release()
    #expect(slots.tryAcquire())
    #expect(!slots.tryAcquire())
  }
}

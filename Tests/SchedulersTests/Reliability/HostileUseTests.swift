import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A serial executor on a dispatch queue, as apps write for actors bound to a queue.
final class DispatchQueueExecutor: SerialExecutor {
  let queue = DispatchQueue(label: "queue-bound-actor")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }
}

/// An actor whose jobs run on a dispatch queue of its own: a custom `SerialExecutor`.
actor QueueBoundActor {
  let executor = DispatchQueueExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
  private(set) var calls = 0
  func call() -> Int {
    calls += 1
    return calls
  }
}

/// Stops a child process that hangs: an exit test whose body would hang fails on its exit
/// status instead of hanging the test run.
func exitIfStillRunning(after seconds: Int, status: Int32 = 70) {
  DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { exit(status) }
}

/// The attacks of a hostile but fair user, each once a hang, a crash or a wrong result.
/// Hangs are checked in a child process with a bound, never by hoping.
@Suite("Hostile use")
struct HostileUseTests {
  /// The scheduler resumes a waiter only after releasing its lock: the cancelling thread's
  /// handler waits for that lock, so a resume under it would lock the process within a few
  /// hundred rounds.
  @Test(.exitTestOffThePool) func aWaitCancelledWhileTheWorkArrivesNeverHangs() async {
    await #expect(processExitsWith: .success) {
      exitIfStillRunning(after: 60)
      for _ in 0..<2_000 {
        let scheduler = DispatchQueue.test
        let waiter = Task { try await scheduler.waitForPendingWork(count: 1) }
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
          start.wait()
          scheduler.schedule {}
        }
        DispatchQueue.global().async(group: done) {
          start.wait()
          waiter.cancel()
        }
        start.signal()
        start.signal()
        _ = await waiter.result
        done.wait()
        await scheduler.advance()  // the scheduler still works
      }
    }
  }

  /// An actor with an executor of its own runs outside the run: awaiting it is outside work,
  /// not a deadlock.
  @Test func anActorWithItsOwnExecutorIsAwaitedAsOutsideWork() async throws {
    let scheduler = DispatchQueue.test
    let value = try await withDeterministicExecution(scheduler: scheduler) {
      let actor = QueueBoundActor()
      _ = await actor.call()
      return await actor.call()
    }
    #expect(value == 2)
  }

  /// A leaked task that keeps yielding must not keep the run from returning: every later run
  /// in the process would wait for it.
  @Test(.exitTestOffThePool) func aLeakedTaskSpinningOnYieldDoesNotKeepTheRunFromEnding() async {
    await withKnownIssue {
      await #expect(processExitsWith: .success) {
        exitIfStillRunning(after: 60)
        let spinner = Mutex<Task<Void, Never>?>(nil)
        try? await withDeterministicExecution {
          spinner.withLock {
            $0 = Task {
              // The hostile user's leaked spinner, in a child process: what is under test.
              while !Task.isCancelled { await Task.yield() }
            }
          }
        }
        spinner.withLock { $0 }?.cancel()
        // A later run works.
        let value = try? await withDeterministicExecution { 42 }
        if value != 42 { exit(71) }
      }
    } matching: { issue in
      issue.description.contains("still runnable when the body finished")
    }
  }

  /// A timeout past what the clock's arithmetic holds means "forever", and must not overflow
  /// when the run waits for the outside work.
  @Test func anEndlessOutsideWorkTimeoutMeansForever() async throws {
    let value = try await withDeterministicExecution(outsideWorkTimeout: .seconds(Int64.max)) {
      await withOutsideWork {
        await withCheckedContinuation { continuation in
          DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) {
            continuation.resume(returning: "done")
          }
        }
      }
    }
    #expect(value == "done")
  }

  /// The message names two tasks advancing at once, not a call "from inside a scheduled
  /// action", which is a different misuse.
  @Test(.exitTestOffThePool) func twoTasksOfOneRunAdvancingTheSameSchedulerAreToldSo() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = DispatchQueue.test
      try? await withDeterministicExecution(scheduler: scheduler) {
        let other = Task { await scheduler.advance(by: .seconds(1)) }
        await scheduler.advance(by: .seconds(1))
        await other.value
      }
    }
    expectStandardError(
      of: result,
      toContain:
        "was called by one task while another task's advance of the same scheduler had not returned"
    )
  }

  /// `advance(by: .zero)` stops at a bound, with a failure, instead of running forever.
  @Test(.offTheCooperativePool) func workThatKeepsSchedulingItselfAtOneInstantStopsTheAdvance()
    async
  {
    let scheduler = DispatchQueue.test
    let ran = Counter()
    let stop = Mutex(false)
    @Sendable func again() {
      ran.increment()
      if !stop.withLock({ $0 }) { scheduler.schedule(again) }
    }
    scheduler.schedule(again)
    withKnownIssue {
      scheduler.advance(by: .zero)
    } matching: { issue in
      issue.description.contains("stopped after running 100000 actions at one instant")
        && issue.description.contains("with 1 still pending")
    }
    #expect(ran.value == 100_000)
    #expect(scheduler.pendingActionCount == 1)
    // The pending action holds the scheduler: let it run once more without rescheduling.
    stop.withLock { $0 = true }
    await scheduler.advance()
    #expect(scheduler.pendingActionCount == 0)
  }

  /// In a process of its own: the 100,000 actions run in one job of the run, and a run takes
  /// every job of its process, so in the suite's process every other test waited for that job
  /// (30 s under the thread sanitizer on a busy machine).
  @Test(.exitTestOffThePool) func theSameInsideADeterministicRun() async {
    await #expect(processExitsWith: .success) {
      let scheduler = DispatchQueue.test
      let stop = Mutex(false)
      try await withKnownIssue {
        try await withDeterministicExecution(scheduler: scheduler) {
          @Sendable func again() { if !stop.withLock({ $0 }) { scheduler.schedule(again) } }
          scheduler.schedule(again)
          await scheduler.advance()
          #expect(scheduler.pendingActionCount == 1)
          stop.withLock { $0 = true }
          await scheduler.advance()
        }
      } matching: { issue in
        issue.description.contains("stopped after running 100000 actions at one instant")
      }
      #expect(scheduler.pendingActionCount == 0)
    }
  }
}

import Dispatch
import Foundation
@_spi(Experimental) import SchedulersTesting
import Synchronization
import Testing

@testable import SchedulersDeterministic

/// Which run a job belongs to when nothing but its address says so (`ActiveRuns`, rule 3: a
/// wake-up from a Dispatch callback, say). A task that has ended frees its address, and the
/// allocator hands it to the next task, which may be another test's: the address alone would
/// make that task the run's own (its progress, its dropped errors reported, reordered when
/// exploring). The run remembers the task's id too, which the runtime never gives twice.
@Suite("Task ownership by address")
struct TaskOwnershipTests {
  /// A job header as the runtime lays it out: a task (kind 0) with `id`.
  final class FakeTaskHeader: @unchecked Sendable {
    let memory = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)

    init(id: UInt32) {
      memory.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
      setID(id)
    }

    /// Another task now at the same address.
    func setID(_ id: UInt32) {
      memory.storeBytes(of: 0, toByteOffset: 4 * MemoryLayout<UInt>.size, as: UInt32.self)
      memory.storeBytes(of: id, toByteOffset: 4 * MemoryLayout<UInt>.size + 4, as: UInt32.self)
    }

    var address: UInt { UInt(bitPattern: memory) }
    var job: UnownedJob { unsafeBitCast(memory, to: UnownedJob.self) }

    deinit { memory.deallocate() }
  }

  /// Asks who owns `job` from a thread where no task is current, as a Dispatch callback would.
  static func ownerSeenFromAThreadWithoutATask(_ job: UnownedJob) -> Bool? {
    let box = UncheckedSendableJob(job: job)
    let answer = Mutex<Bool?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      answer.withLock { $0 = ActiveRuns.owner(of: box.job)?.isItsOwn }
      done.signal()
    }
    thread.start()
    done.wait()
    return answer.withLock { $0 }
  }

  struct UncheckedSendableJob: @unchecked Sendable { let job: UnownedJob }

  /// The id of the task that calls it (in a run: the body's).
  static func currentTasksID() -> UInt32 {
    withUnsafeCurrentTask { task in
      task.map { TaskHeader(unsafeBitCast($0, to: UnsafeRawPointer.self)).id } ?? 0
    }
  }

  @Test(.enabled(if: DeterministicExecution.backend.isAvailable))
  func aTaskAtAnEndedTasksAddressIsNotTheRunsOwn() async throws {
    let header = FakeTaskHeader(id: 0)
    let seen = Mutex<(sameTask: Bool?, reusedAddress: Bool?)>((nil, nil))
    try await withDeterministicExecution {
      let run = try #require(DeterministicRun.current)
      // Numbered as a task made during the run is, after the body's task.
      header.setID(Self.currentTasksID() &+ 1000)
      ActiveRuns.noteTask(header.address, of: run)
      let sameTask = Self.ownerSeenFromAThreadWithoutATask(header.job)
      header.setID(Self.currentTasksID() &+ 1001)  // the task ended; another was made there
      let reusedAddress = Self.ownerSeenFromAThreadWithoutATask(header.job)
      seen.withLock { $0 = (sameTask, reusedAddress) }
    }
    let (sameTask, reusedAddress) = seen.withLock { $0 }
    #expect(sameTask == true, "the task the run noted is its own, known by its address")
    #expect(reusedAddress == false, "a new task at that address is taken, not the run's own")
  }

  /// A task made before the run began, resumed where no task is current (a Dispatch callback,
  /// a child task's end), is another test's: the run leaves it to the platform's executors. A
  /// task made during the run may be one the test started from a Dispatch callback: taken.
  @Test(.enabled(if: DeterministicExecution.backend.isAvailable))
  func aTaskMadeBeforeTheRunIsLeftToThePlatform() async throws {
    let before = FakeTaskHeader(id: 0)
    let during = FakeTaskHeader(id: 0)
    let seen = Mutex<(before: Bool??, during: Bool??)>((nil, nil))
    try await withDeterministicExecution {
      before.setID(Self.currentTasksID() &- 1000)
      during.setID(Self.currentTasksID() &+ 1000)
      seen.withLock {
        $0 = (
          .some(Self.ownerSeenFromAThreadWithoutATask(before.job)),
          .some(Self.ownerSeenFromAThreadWithoutATask(during.job))
        )
      }
    }
    let (madeBefore, madeDuring) = seen.withLock { $0 }
    #expect(madeBefore == .some(nil), "a task made before the run goes to the platform")
    #expect(madeDuring == .some(false), "a task made during the run is taken, not its own")
  }

  /// The stand-in for an unrelated test's task: a loop whose every step is a child task (a job
  /// the looping task enqueues itself), counting the steps it takes while a run holds its
  /// thread, until told to stop.
  final class ChildTaskLoop: Sendable {
    let runHolds = Atomic<Bool>(false)
    let stop = Atomic<Bool>(false)
    private let stepsWhileHeld = DispatchSemaphore(value: 0)

    func loop() async {
      while !stop.load(ordering: .relaxed) {
        async let step = runHolds.load(ordering: .acquiring)
        if await step { stepsWhileHeld.signal() }
      }
    }

    /// Called by the run's body, holding its thread: waits until the loop has stepped ten
    /// times. Real time, bounded: the loop's steps need a thread, which a busy machine may give
    /// late; with its jobs in the run, they never come, and the wait ends at its limit.
    func holdTheRunUntilTenSteps() -> DispatchTimeoutResult {
      runHolds.store(true, ordering: .releasing)
      var result = DispatchTimeoutResult.success
      for _ in 0..<10 where result == .success {
        result = stepsWhileHeld.wait(timeout: .now() + .seconds(120))
      }
      return result
    }
  }

  /// A task of no run, an unrelated test's, goes on while a run holds its thread: its jobs go
  /// to the pool, not to the run's queue behind the job that holds the run. Without that, the
  /// run took every job of the process, and the unrelated task waited for the run to end
  /// (here the run would wait for it: the wait below would end at its limit).
  ///
  /// The run's body blocks its thread, one of the pool's when the run is driven in place, so
  /// the other task needs a second thread: enabled where the pool has two.
  @Test(
    .enabled(if: DeterministicExecution.backend.isAvailable),
    .enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2))
  func aTaskOfNoRunGoesOnWhileARunHoldsItsThread() async throws {
    let loop = ChildTaskLoop()
    let unrelated = Task.detached { await loop.loop() }
    defer { loop.stop.store(true, ordering: .relaxed) }
    let waited = try await withDeterministicExecution { loop.holdTheRunUntilTenSteps() }
    #expect(waited == .success, "the unrelated task's jobs waited for the run to end")
    loop.stop.store(true, ordering: .relaxed)
    await unrelated.value
  }

  /// A task of no run that makes an unstructured task while a run is in progress: the new task
  /// is of no run too, and so are its child tasks. Swift Testing, at a bounded width, starts a
  /// test while another test's run is in progress; a task that test made with `Task.detached`
  /// was once "made during the run", its child tasks taken, and a loop of them kept the run's
  /// queue from ever emptying while the looping test waited at the gate (the whole process
  /// stalled). Here the run's body holds its thread until the loop, made by a task from before
  /// the run once the run has begun, has stepped ten times: taken, its steps never come.
  @Test(
    .enabled(if: DeterministicExecution.backend.isAvailable),
    .enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2))
  func aTaskThatAnotherTestsTaskMakesDuringARunIsOfNoRunToo() async throws {
    let loop = ChildTaskLoop()
    let (runBegan, began) = AsyncStream<Void>.makeStream()
    // Another test's task: made before the run, it makes the looping task once the run has
    // begun (a Dispatch callback wakes it, so that no task of the run does).
    let otherTest = Task.detached {
      for await _ in runBegan { break }
      await Task.detached { await loop.loop() }.value
    }
    defer { loop.stop.store(true, ordering: .relaxed) }
    let waited = try await withDeterministicExecution {
      DispatchQueue.global().async { began.yield() }
      return loop.holdTheRunUntilTenSteps()
    }
    #expect(waited == .success, "the loop's child tasks were taken into the run")
    loop.stop.store(true, ordering: .relaxed)
    await otherTest.value
  }
}

import Dispatch
import Foundation
import SchedulersTesting
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

  @Test(.enabled(if: DeterministicExecution.backend.isAvailable))
  func aTaskAtAnEndedTasksAddressIsNotTheRunsOwn() async throws {
    let header = FakeTaskHeader(id: 7)
    let seen = Mutex<(sameTask: Bool?, reusedAddress: Bool?)>((nil, nil))
    try await withDeterministicExecution {
      let run = try #require(DeterministicRun.current)
      ActiveRuns.noteTask(header.address, of: run)
      let sameTask = Self.ownerSeenFromAThreadWithoutATask(header.job)
      header.setID(8)  // the task ended; another task was made at its address
      let reusedAddress = Self.ownerSeenFromAThreadWithoutATask(header.job)
      seen.withLock { $0 = (sameTask, reusedAddress) }
    }
    let (sameTask, reusedAddress) = seen.withLock { $0 }
    #expect(sameTask == true, "the task the run noted is its own, known by its address")
    #expect(reusedAddress == false, "a new task at that address is taken, not the run's own")
  }
}

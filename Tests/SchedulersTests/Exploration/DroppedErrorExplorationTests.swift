import SchedulersTesting
import Testing

// An error dropped in some schedules only: an upload that a cancel can overtake throws, and
// the task that started it was fire-and-forget, so the error goes nowhere. First in, first out,
// the upload ends before the cancel (which asks for confirmation first) and nothing throws; a run reports the dropped error in the
// schedules where the cancel goes first (`DeterministicExecution.DroppedTaskErrors`).

struct UploadInterrupted: Error {}

/// The upload service: cancelling it makes the upload in progress fail.
actor UploadService {
  private var cancelled = false
  private(set) var uploaded: [String] = []

  func upload(_ file: String) async throws {
    await Task.yield()  // the round trip to the server
    if cancelled { throw UploadInterrupted() }
    uploaded.append(file)
  }

  func cancelAll() { cancelled = true }
}

protocol UploadStarter: Sendable {
  init(service: UploadService)
  func start(_ file: String)
}

/// The bug: fire and forget, so an interrupted upload's error is dropped.
struct FireAndForgetUploads: UploadStarter {
  let service: UploadService
  func start(_ file: String) {
    Task { try await service.upload(file) }
  }
}

/// The fix: the task handles the interruption it can meet.
struct HandledUploads: UploadStarter {
  let service: UploadService
  func start(_ file: String) {
    Task {
      do { try await service.upload(file) } catch is UploadInterrupted {
        // Cancelled on purpose: nothing to report.
      }
    }
  }
}

/// The confirmation a cancel asks for: a few round trips.
actor CancelConfirmation {
  func confirm() async {
    for _ in 0..<3 { await Task.yield() }  // the dialog's round trips
  }
}

/// An upload, and a confirmed cancel that may or may not overtake it.
@Sendable func anUploadAndACancel<S: UploadStarter>(_: S.Type) async {
  let service = UploadService()
  let confirmation = CancelConfirmation()
  S(service: service).start("report.pdf")
  let cancel = Task {
    await confirmation.confirm()
    await service.cancelAll()
  }
  await cancel.value
}

extension ExplorationTests {
  @Suite("Exploring schedules: an error dropped in some schedules")
  struct DroppedErrorExplorationTests {
    @Test(.explorationNeedsTheCustomExecutors)
    func theFirstInFirstOutRunPassesButExploringFindsTheDroppedError() async {
      let finding = await exploringFindsAFailingSchedule {
        await anUploadAndACancel(FireAndForgetUploads.self)
      }
      #expect(
        finding?.reports.contains {
          $0.contains("ended by throwing SchedulersTests.UploadInterrupted()")
        } == true, "\(finding?.reports ?? [])")
    }

    @Test func handlingTheInterruptionPassesTenThousandSchedules() async {
      await exploreSchedules(.exploring(schedules: passingSchedules)) {
        await anUploadAndACancel(HandledUploads.self)
      }
    }
  }
}

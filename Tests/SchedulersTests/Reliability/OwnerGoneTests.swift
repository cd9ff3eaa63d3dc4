import Dispatch
import Schedulers
import Testing

/// Scheduling after the owner is gone: the scheduler holds only the action, so an owner that
/// captured itself weakly is released at once, its pending action runs as a no-op when due and
/// is then released, and owners that hold a `Debouncer`, a `Throttler` or a timer's cancellable
/// cancel their pending work when they go.
@Suite("Scheduling after the owner is gone")
struct OwnerGoneTests {
  @MainActor
  final class Model {
    let scheduler: AnySchedulerOf<DispatchQueue>
    let releases: Counter
    var reloads = 0
    var timer: AnyCancellable?
    init(scheduler: AnySchedulerOf<DispatchQueue>, releases: Counter) {
      self.scheduler = scheduler
      self.releases = releases
    }
    deinit { releases.increment() }

    func reloadLater() {
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) {
        @MainActor [weak self] in self?.reloads += 1
      }
    }

    func startTimer() {
      timer = AnyCancellable(
        scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
          @MainActor [weak self] in self?.reloads += 1
        })
    }
  }

  @MainActor @Test func aWeaklyCapturedOwnerIsReleasedAndItsActionRunsAsANoOp() {
    let scheduler = DispatchQueue.test
    let releases = Counter()
    var model: Model? = Model(scheduler: scheduler.eraseToAnyScheduler(), releases: releases)
    model?.reloadLater()
    model = nil
    #expect(releases.value == 1)  // the pending action does not keep its owner alive
    #expect(scheduler.pendingActionCount == 1)
    scheduler.advance(by: .seconds(10))
    #expect(scheduler.pendingActionCount == 0)  // ran (as a no-op) and released
  }

  @MainActor @Test func anOwnersTimerStopsWhenTheOwnerGoes() {
    let scheduler = DispatchQueue.test
    let releases = Counter()
    var model: Model? = Model(scheduler: scheduler.eraseToAnyScheduler(), releases: releases)
    model?.startTimer()
    scheduler.advance(by: .seconds(2))
    #expect(model?.reloads == 3)
    model = nil
    #expect(releases.value == 1)
    #expect(scheduler.pendingActionCount == 0)  // the released cancellable cancelled the timer
  }
}

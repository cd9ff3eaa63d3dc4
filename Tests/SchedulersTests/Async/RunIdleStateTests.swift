import Dispatch
import Testing

@testable import SchedulersDeterministic

/// The run's idle state (`DeterministicRun.Idle`): one value for whether the driver waits,
/// whether the run looks deadlocked and until when, and whether the main queue is settled, and
/// what each event does to it.
@Suite("A run's idle state")
struct RunIdleStateTests {
  typealias Idle = DeterministicRun.Idle
  let graceEnds = DispatchTime(uptimeNanoseconds: 7_000_000_000)

  /// A job not the run's own wakes the driver, and the grace runs on: another test's poller
  /// cannot put a deadlock's report off.
  @Test func aJobNotItsOwnWakesTheDriverAndTheGraceRunsOn() {
    var idle = Idle.waitingOutTheGrace(until: graceEnds)
    let woke1 = idle.wake(endingSuspicion: false, unsettlingTheMainQueue: false)
    #expect(woke1)
    #expect(!idle.driverIsWaiting)
    #expect(idle.graceEnds == graceEnds)
    // Woken again, it was not waiting: no one signals the driver twice.
    let woke2 = idle.wake(endingSuspicion: false, unsettlingTheMainQueue: false)
    #expect(!woke2)
  }

  /// A job of the run's own is progress: the suspicion ends; the main queue stays as it was.
  @Test func aJobOfItsOwnEndsTheSuspicion() {
    var idle = Idle.suspected(graceEnds: graceEnds, mainQueueSettled: true)
    let woke3 = idle.wake(endingSuspicion: true, unsettlingTheMainQueue: false)
    #expect(!woke3)
    #expect(idle.graceEnds == nil)
    #expect(idle.mainQueueSettled)
  }

  /// The body's end keeps the grace, and the main queue may hold its main-actor jobs now.
  @Test func theBodysEndKeepsTheGraceAndUnsettlesTheMainQueue() {
    var idle = Idle.suspected(graceEnds: graceEnds, mainQueueSettled: true)
    let woke4 = idle.wake(endingSuspicion: false, unsettlingTheMainQueue: true)
    #expect(!woke4)
    #expect(idle.graceEnds == graceEnds)
    #expect(!idle.mainQueueSettled)
  }

  /// The main queue's quiet turns settle it, keeping a grace that runs; a waiting driver's
  /// state is not theirs to change.
  @Test func quietTurnsSettleTheMainQueue() {
    var idle = Idle.unsettled
    idle.noteMainQueueSettled()
    #expect(idle.mainQueueSettled)
    idle.unsettleTheMainQueue()
    #expect(!idle.mainQueueSettled)
    idle = .suspected(graceEnds: graceEnds, mainQueueSettled: false)
    idle.noteMainQueueSettled()
    #expect(idle.mainQueueSettled && idle.graceEnds == graceEnds)
    idle = .waitingForOutsideWork
    idle.noteMainQueueSettled()
    #expect(idle.driverIsWaiting && !idle.mainQueueSettled)
  }

  /// The end of outside work wakes a driver that waits for it.
  @Test func theEndOfOutsideWorkWakesTheDriver() {
    var idle = Idle.waitingForOutsideWork
    let woke5 = idle.wake(endingSuspicion: true, unsettlingTheMainQueue: true)
    #expect(woke5)
    #expect(!idle.driverIsWaiting && idle.graceEnds == nil && !idle.mainQueueSettled)
  }
}

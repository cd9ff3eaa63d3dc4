import Foundation
import Schedulers
import Synchronization
import Testing

@testable import SchedulersDeterministic

/// With `SCHEDULERS_CHECK_CONTRACTS=1` (CI's suites under the other backends and its stress
/// steps), a run checks its state's invariants at every step and that its jobs run one at a
/// time; a broken one stops the process naming it. Each child process sets the variable for
/// itself.
@Suite("A run checks its contracts when asked")
struct RunContractTests {
  @Test(.exitTestOffThePool) func aBrokenInvariantIsNamed() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      setenv("SCHEDULERS_CHECK_CONTRACTS", "1", 1)
      var state = DeterministicRun.State()
      state.head = 3  // past the end of an empty queue
      state.checkInvariants()
    }
    let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      text.contains("the run's state broke an invariant: the queue's head is within it"),
      "\(text)")
  }

  @Test(.exitTestOffThePool) func twoJobsOfARunAtOnceAreNamed() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      setenv("SCHEDULERS_CHECK_CONTRACTS", "1", 1)
      guard let router = jobRouter else { exit(1) }
      let run = DeterministicRun(
        router: router, scheduleVirtualSleep: nil, describePending: { nil },
        outsideWorkTimeout: .seconds(1))
      run.runningOneJobAtATime {
        run.runningOneJobAtATime {}
      }
    }
    let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(text.contains("one job at a time is broken"), "\(text)")
  }

  @Test func offByDefault() {
    // This process's suites run without the variable, as users' do, unless CI sets it.
    let asked = ProcessInfo.processInfo.environment["SCHEDULERS_CHECK_CONTRACTS"] == "1"
    #expect(DeterministicRun.checksContracts == asked)
  }
}

/// A job's header is read only where the header probe, before a process's first run, found it
/// as expected; where it did not, a warning names what failed and what is off, and runs still
/// work. (Frames, which the same probe checks next, turn off without a warning.)
@Suite("The runtime's layout, probed once")
struct RuntimeProbeTests {
  @Test func theProbeFindsTheHeaderHere() async throws {
    try await withDeterministicExecution {}
    #expect(RuntimeABI.isProbed)
    #expect(RuntimeABI.headerFailure == nil)
    #expect(RuntimeABI.headerIsKnown)
  }

  @Test(.exitTestOffThePool) func aFailedProbeIsWarnedAboutAndRunsStillWork() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      RuntimeABI.pretendsTheHeaderIsUnknown.store(true, ordering: .relaxed)
      let scheduler = DispatchQueue.test
      let value = try await withDeterministicExecution(scheduler: scheduler) {
        let child = Task { () -> Int in
          try await scheduler.sleep(for: .seconds(1))
          return 7
        }
        await scheduler.advance(by: .seconds(1))
        return try await child.value
      }
      guard value == 7, !RuntimeABI.headerIsKnown else { exit(3) }
    }
    let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      text.contains(
        "the runtime's job header is not laid out as this package reads it (the probe was told to fail)"
      ), "\(text)")
    #expect(text.contains("errors that tasks drop are not reported"), "\(text)")
  }
}

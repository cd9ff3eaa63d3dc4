import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

/// An actor whose method sleeps: a sleeper resumed through the actor's own job.
actor IsolatedSleeper {
  func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

/// Plain `Task.sleep` inside a deterministic run with a test scheduler: on its virtual clock,
/// and gone from it as soon as the sleep is over, whichever way it ends.
@Suite("Plain Task.sleep in a deterministic run")
struct PlainSleepTests {
  @Test(.plainTaskSleepIsVirtual) func aPlainSleepIsListedAsATaskSleepWithItsTasksName()
    async throws
  {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      let anonymous = Task { try await Task.sleep(for: .seconds(1)) }
      let named = Task(name: "poller") { try await Task.sleep(for: .seconds(2)) }
      await scheduler.advance()
      #expect(
        scheduler.pendingWork.map(\.description) == [
          "a Task.sleep, due in 1 s", "a Task.sleep in task \"poller\", due in 2 s",
        ])
      #expect(
        scheduler.pendingWork.map(\.label) == ["a Task.sleep", "a Task.sleep in task \"poller\""])
      await scheduler.advance(by: .seconds(2))
      try await anonymous.value
      try await named.value
    }
  }

  /// A cancelled plain sleep's wake-up leaves the scheduler at once, not at its deadline, so
  /// `expectNoPendingWork` passes right after the cancel.
  @Test(.plainTaskSleepIsVirtual) func aCancelledPlainSleepLeavesTheQueueAtOnce() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      let sleeper = Task { try await Task.sleep(for: .seconds(1)) }
      await scheduler.advance()
      #expect(scheduler.pendingActionCount == 1)
      sleeper.cancel()
      #expect(scheduler.pendingActionCount == 0)
      await #expect(throws: CancellationError.self) { try await sleeper.value }
      scheduler.expectNoPendingWork()
    }
  }

  @Test(.plainTaskSleepIsVirtual) func aCancelledPlainSleepOnAMainActorTaskLeavesTheQueueAtOnce()
    async throws
  {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let sleeper = Task { @MainActor in try await Task.sleep(for: .seconds(1)) }
      await scheduler.advance()
      #expect(scheduler.pendingActionCount == 1)
      sleeper.cancel()
      #expect(scheduler.pendingActionCount == 0)
      await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
  }

  /// A sleeper isolated to an actor is resumed through the actor's job, which does not name
  /// the task: its wake-up leaves the queue when the run is next idle, before `advance`
  /// returns.
  @Test(.plainTaskSleepIsVirtual) func aCancelledPlainSleepInAnActorLeavesTheQueueByTheNextAdvance()
    async throws
  {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      let actor = IsolatedSleeper()
      let sleeper = Task { try await actor.sleep(for: .seconds(1)) }
      await scheduler.advance()
      #expect(scheduler.pendingActionCount == 1)
      sleeper.cancel()
      await scheduler.advance()
      #expect(scheduler.pendingActionCount == 0)
      #expect(scheduler.now == DispatchQueue.virtualEpoch)  // no time passed
      await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
  }

  /// A plain sleeper left at the end fails the test, and is not woken early outside the run.
  @Test(.plainTaskSleepIsVirtual)
  func plainSleepersLeftAtTheEndAreReportedAndGoOnSleepingInRealTime() async throws {
    let scheduler = DispatchQueue.test
    let sleeper = Mutex<Task<Void, any Error>?>(nil)
    try await withKnownIssue {
      try await withDeterministicExecution(scheduler: scheduler) {
        let task = Task(name: "refresh") { try await Task.sleep(for: .seconds(3600)) }
        sleeper.withLock { $0 = task }
        await scheduler.advance(by: .seconds(600))
      }
    } matching: { issue in
      issue.description.contains("finished with work still pending")
        && issue.description.contains("a Task.sleep in task \"refresh\", due in 3000 s")
        && issue.description.contains("plain Task.sleeps go on sleeping outside the run")
    }
    #expect(scheduler.pendingActionCount == 0)
    // Still asleep (50 minutes of real time left), so the cancellation is what ends it.
    let task = try #require(sleeper.withLock { $0 })
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  /// Each of these returns at once, as outside a run; none waits on the test scheduler at
  /// "due in 0 s", which the run would report as a deadlock.
  @Test func zeroAndNegativeSleepsReturnAtOnce() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      try await Task.sleep(for: .zero)
      try await Task.sleep(nanoseconds: 0)
      try await Task.sleep(for: .milliseconds(-5))
      try await Task.sleep(until: .now, clock: .continuous)
      try await Task.sleep(until: .now - .seconds(1), clock: .suspending)
    }
    #expect(scheduler.now == DispatchQueue.virtualEpoch)
  }

  /// A sub-millisecond sleep keeps its length on the virtual clock: it is not rounded to zero.
  ///
  /// Its length is recovered from real time (`PlainSleepExactnessTests`), as the roundest one in
  /// a window that holds it. The window proves the runtime's hand-over took less than 100 µs
  /// when it is narrower than that, and then 200 µs is the only length as round in it: the sleep
  /// must come out exact. A hand-over of 100 µs or more (a thread preempted in it, on a loaded
  /// machine running the address sanitizer) can leave 100 µs in the window too, as round and
  /// smaller; the sleep is then held to its window, the one promise left.
  @Test(.plainTaskSleepIsVirtual) func aSubMillisecondSleepWaitsForItsVirtualTime() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      let sleeper = Task { try await Task.sleep(for: .microseconds(200)) }
      await scheduler.advance()
      let window = try #require(DeterministicExecution.lastPlainSleepWindow)
      let due = scheduler.pendingWork.map(\.dueIn)
      if window < .microseconds(100) {
        #expect(due == [.microseconds(200)], "its window \(window)")
      } else if let length = due.first {
        // The hand-over (at most the window) took the gap that far below 200 µs, and the window
        // reaches as far above the gap.
        let width = DispatchQueue.SchedulerTimeType.Stride.nanoseconds(
          Nanoseconds.saturating(window))
        #expect(due.count == 1)
        #expect(
          length >= .microseconds(200) - width && length <= .microseconds(200) + width,
          "it came out \(length), its window \(window)")
      } else {
        #expect(window >= .microseconds(200), "it returned at once, its window \(window)")
      }
      await scheduler.advance(by: due.first ?? .zero)
      try await sleeper.value
    }
  }

  /// The "sleep until cancelled" idiom, and sleeps too long for the virtual clock: before,
  /// they stopped the process ("does not fit in Int nanoseconds").
  @Test(arguments: [
    "nanoseconds: .max", "seconds: 1_000_000_000_000", "seconds: Int64.max / 4",
  ])
  func sleepsBeyondTheVirtualClockWaitUntilCancelled(_ length: String) async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) {
      let sleeper = Task {
        switch length {
        case "nanoseconds: .max": try await Task.sleep(nanoseconds: .max)
        case "seconds: 1_000_000_000_000": try await Task.sleep(for: .seconds(1_000_000_000_000))
        default: try await Task.sleep(for: .seconds(Int64.max / 4))
        }
      }
      await scheduler.advance(by: .seconds(86_400 * 365 * 100))
      sleeper.cancel()
      await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
  }

  @Test(.plainTaskSleepIsVirtual)
  func aBodySleepingUntilCancelledIsReportedAsADeadlockNamingTheSleep() async throws {
    let scheduler = DispatchQueue.test
    await withKnownIssue {
      await #expect(throws: DeterministicExecutionError.self) {
        try await withDeterministicExecution(scheduler: scheduler) {
          try await Task.sleep(nanoseconds: .max)
        }
      }
    } matching: { issue in
      issue.description.contains("deadlocked")
        && issue.description.contains("a Task.sleep, due in ")
        && issue.description.contains("past 292 years: until cancelled")
    }
  }

  @Test func withoutASchedulerASleepUntilCancelledEndsWhenCancelled() async throws {
    try await withDeterministicExecution {
      let sleeper = Task { try await Task.sleep(nanoseconds: .max) }
      try await Task.sleep(for: .milliseconds(1))  // real time: outside work, awaited
      sleeper.cancel()
      await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
  }

  /// What an explicit clock means inside a run: `ContinuousClock` and `SuspendingClock` sleeps
  /// of the run's tasks follow the virtual clock too. The runtime hands them over exactly as
  /// `Task.sleep(for:)` (which is a `ContinuousClock` sleep), so they cannot be told apart.
  @Test(.plainTaskSleepIsVirtual) func sleepsOnAnExplicitContinuousOrSuspendingClockAreVirtualToo()
    async throws
  {
    let scheduler = DispatchQueue.test
    let woke = Recorder<String>()
    try await withDeterministicExecution(scheduler: scheduler) {
      let continuous = Task {
        try await Task.sleep(for: .seconds(3600), clock: ContinuousClock())
        woke.append("continuous")
      }
      let suspending = Task {
        // Virtual, inside the run: no real time passes (the point of this test).
        try await SuspendingClock().sleep(for: .seconds(7200))
        woke.append("suspending")
      }
      await scheduler.advance(by: .seconds(3600))
      #expect(woke.values == ["continuous"])
      await scheduler.advance(by: .seconds(3600))
      #expect(woke.values == ["continuous", "suspending"])
      try await continuous.value
      try await suspending.value
    }
  }
}

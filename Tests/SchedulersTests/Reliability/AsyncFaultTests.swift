import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// Async faults: cancellation racing with resumption, released continuations, and runs that
/// throw or are cancelled.
@Suite("Async faults")
struct AsyncFaultTests {
  static let sleepers = 200
  static let rounds = 20

  /// Per round: 200 tasks sleep until the same deadline; then, on two real threads at once, one
  /// advances the test scheduler past the deadline while the other cancels every task. Each
  /// sleeper's continuation is resumed exactly once (a second resume would trap, a lost one
  /// would leave its task suspended, which the run reports as a deadlock): every task ends,
  /// either woken or with `CancellationError`, and nothing stays queued. The time limit is a
  /// backstop only, far above the work: 4 to 15 s alone, but 84 s in one CI run, under the
  /// address sanitizer beside a build on two cores, where a limit of one minute failed it.
  @Test(.timeLimit(.minutes(10)))
  func cancellationRacingWithWakeUpResumesEachSleeperExactlyOnce() async throws {
    var woken = 0
    var cancelled = 0
    for _ in 0..<Self.rounds {
      let scheduler = DispatchQueue.test
      let deadline = scheduler.now.advanced(by: .seconds(1))
      let outcomes = try await withDeterministicExecution(scheduler: scheduler) {
        let tasks = (0..<Self.sleepers).map { _ in
          Task { () -> Bool in
            do {
              try await scheduler.sleep(until: deadline, tolerance: nil)
              return true
            } catch {
              return false
            }
          }
        }
        await scheduler.advance()  // every sleeper has registered: exact, no polling
        #expect(scheduler.pendingActionCount == Self.sleepers)
        // The race happens outside the run, on two Dispatch threads.
        await withOutsideWork {
          await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
              DispatchQueue.concurrentPerform(iterations: 2) { side in
                if side == 0 {
                  scheduler.advance(to: deadline)
                } else {
                  for task in tasks { task.cancel() }
                }
              }
              continuation.resume()
            }
          }
        }
        var outcomes: [Bool] = []
        for task in tasks { outcomes.append(await task.value) }
        return outcomes
      }
      #expect(outcomes.count == Self.sleepers)
      #expect(scheduler.pendingActionCount == 0)
      woken += outcomes.filter { $0 }.count
      cancelled += outcomes.filter { !$0 }.count
    }
    #expect(woken + cancelled == Self.sleepers * Self.rounds)
  }

  @Test func aCancelledSleeperReleasesItsWakeUpAndItsTask() async throws {
    let scheduler = DispatchQueue.test
    let releases = Counter()
    try await withDeterministicExecution(scheduler: scheduler) {
      let sleeper = Task { [token = Token(releases: releases)] in
        try await scheduler.sleep(for: .seconds(10))
        withExtendedLifetime(token) {}
      }
      await scheduler.advance()
      #expect(scheduler.pendingActionCount == 1)
      sleeper.cancel()
      await #expect(throws: CancellationError.self) { try await sleeper.value }
      // The queued wake-up (which holds the continuation) left the queue, and the task, with
      // everything it captured, is gone.
      #expect(scheduler.pendingActionCount == 0)
    }
    #expect(releases.value == 1)
  }

  @Test func aRunThatThrowsLeavesTheNextRunWorking() async throws {
    struct Expected: Error {}
    let first = DispatchQueue.test
    await #expect(throws: Expected.self) {
      try await withDeterministicExecution(scheduler: first) {
        let sleeper = Task { try await first.sleep(for: .seconds(1)) }
        await first.advance(by: .seconds(1))
        try await sleeper.value
        throw Expected()
      }
    }
    try await expectARunStillWorks()
  }

  @Test func aCancelledRunLeavesTheNextRunWorking() async throws {
    let first = DispatchQueue.test
    let run = Task {
      try await withDeterministicExecution(scheduler: first) {
        try await first.sleep(for: .seconds(60))
      }
    }
    run.cancel()
    await #expect(throws: CancellationError.self) { try await run.value }
    try await expectARunStillWorks()
  }

  /// Only the run's own tasks sleep on its virtual clock: a plain `Task.sleep` of a task outside
  /// the run (a detached task here; a test's time limit, or a test running in parallel, in
  /// practice) keeps real time, and is neither woken by the run's advances nor at its end.
  @Test(.timeLimit(.minutes(1)), .plainTaskSleepIsVirtual)
  func sleepsOfTasksOutsideTheRunKeepRealTime() async throws {
    let scheduler = DispatchQueue.test
    let outsider = try await withDeterministicExecution(scheduler: scheduler) {
      let outsider = Task.detached {
        try await Task.sleep(for: .seconds(3_600))
        return "woke"
      }
      let insider = Task { try await Task.sleep(for: .seconds(3_600)) }
      await scheduler.advance(by: .seconds(7_200))
      try await insider.value  // the run's own plain sleep follows the virtual clock
      return outsider
    }
    // Two virtual hours and the end of the run later, the outsider still sleeps in real time.
    outsider.cancel()
    await #expect(throws: CancellationError.self) { try await outsider.value }
  }

  /// A fresh run where a sleeper wakes exactly at its deadline, and plain tasks run normally
  /// after it.
  func expectARunStillWorks(sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let scheduler = DispatchQueue.test
    let log = Recorder<String>()
    try await withDeterministicExecution(scheduler: scheduler) {
      let sleeper = Task {
        try await scheduler.sleep(for: .seconds(1))
        log.append("woke")
      }
      await scheduler.advance(by: .milliseconds(999))
      #expect(log.values.isEmpty, sourceLocation: sourceLocation)
      await scheduler.advance(by: .milliseconds(1))
      #expect(log.values == ["woke"], sourceLocation: sourceLocation)
      try await sleeper.value
    }
    #expect(await Task.detached { 42 }.value == 42, sourceLocation: sourceLocation)
  }
}

import Dispatch
import Foundation
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

/// Deterministic runs of different tests go side by side, each exact about its own jobs and
/// reporting its own deadlock. Each test makes its runs meet: neither can go on until the other
/// has started, so runs that took turns would fail (the first to start would wait for the other
/// until its outside-work timeout). Serialized: two such tests at once could take every place
/// side by side with one run each, both waiting for a partner that cannot get in.
@Suite("Runs side by side", .enabled(if: DeterministicExecution.runsGoSideBySide), .serialized)
struct SideBySideRunsTests {
  @Test func runsOfDifferentTestsGoSideBySide() async throws {
    let meeting = Meeting(of: 2)
    async let first: Int = withDeterministicExecution(outsideWorkTimeout: .seconds(20)) {
      await withOutsideWork { await meeting.arrive() }
      return 1
    }
    async let second: Int = withDeterministicExecution(outsideWorkTimeout: .seconds(20)) {
      await withOutsideWork { await meeting.arrive() }
      return 2
    }
    #expect(try await first + second == 3)
  }

  @Test func oneRunDeadlocksWhileTheOtherFinishes() async throws {
    let meeting = Meeting(of: 2)
    let scheduler = DispatchQueue.test
    async let finishing: [Int] = withDeterministicExecution(
      scheduler: scheduler, outsideWorkTimeout: .seconds(20)
    ) {
      await withOutsideWork { await meeting.arrive() }
      // Tasks, an actor and virtual time: the run settles all of them while the other run is
      // stuck.
      let log = Log()
      await withTaskGroup(of: Void.self) { group in
        for value in 1...3 {
          group.addTask {
            try? await scheduler.sleep(for: .seconds(value))
            await log.append(value)
          }
        }
        await scheduler.advance(by: .seconds(3))
      }
      return await log.values
    }
    try await withKnownIssue {
      try await withDeterministicExecution(outsideWorkTimeout: .seconds(20)) {
        await withOutsideWork { await meeting.arrive() }
        // Nothing will ever yield: a deadlock, which the run reports and answers by
        // cancelling the body (which ends the iteration).
        let (stream, _) = AsyncStream<Int>.makeStream()
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
      }
    } matching: { issue in
      issue.description.contains("Deterministic run deadlocked")
    }
    #expect(try await finishing.sorted() == [1, 2, 3])
  }

  @Test func twoRunsOnTheMainActorEachKeepTheirOrder() async throws {
    let meeting = Meeting(of: 2)
    async let first: [String] = countdownOnTheMainActor("first", meeting)
    async let second: [String] = countdownOnTheMainActor("second", meeting)
    #expect(try await first == expectedCountdown("first"))
    #expect(try await second == expectedCountdown("second"))
  }
}

extension SideBySideRunsTests {
  /// What runs side by side cannot keep apart: an actor two tests share. One run holds it (its
  /// task blocks inside it), the other's task queues on it and so runs on the first run's
  /// thread when it is let go. The second run sees its task there, and fails saying why.
  ///
  /// Not with the driver on the main queue, where the holder's job runs on the main queue and
  /// blocks it, and with it every run's steps (as a job blocking the main thread blocks
  /// everything under `withMainSerialExecutor`).
  @Test(
    .timeLimit(.minutes(1)),
    .enabled(if: ProcessInfo.processInfo.environment["SCHEDULERS_DRIVER"] != "main-queue"))
  func aRunWhoseTaskRanOnAnotherRunsThreadFailsSayingSo() async throws {
    let meeting = Meeting(of: 2)
    let shared = SharedCounter()
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    async let holder: Void = withDeterministicExecution(outsideWorkTimeout: .seconds(20)) {
      await withOutsideWork { await meeting.arrive() }
      await shared.hold(signalling: holding, until: release)
    }
    try await withKnownIssue {
      try await withDeterministicExecution(outsideWorkTimeout: .seconds(20)) {
        await withOutsideWork { await meeting.arrive() }
        await withOutsideWork { await waitFromDispatch(for: holding) }
        // Let the holder go once this task has queued on the actor: real time, because the
        // queueing is invisible to both runs (which is the point).
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
          release.signal()
        }
        await withOutsideWork { await shared.increment() }
      }
    } matching: { issue in
      issue.description.contains("ran inside another test's run going side by side")
    }
    try await holder
  }
}

private actor SharedCounter {
  private var count = 0
  /// Blocks the thread that holds the actor until `release` is signalled.
  func hold(signalling holding: DispatchSemaphore, until release: DispatchSemaphore) {
    holding.signal()
    release.wait()
  }
  func increment() { count += 1 }
}

/// Waits for a semaphore on a Dispatch thread, not on the caller's.
private func waitFromDispatch(for semaphore: DispatchSemaphore) async {
  await withCheckedContinuation { continuation in
    DispatchQueue.global().async {
      semaphore.wait()
      continuation.resume()
    }
  }
}

/// A countdown whose ticks are main-actor jobs, checked after every advance: each tick is
/// exactly where the test expects it, whatever the other run does on the main actor meanwhile.
@MainActor private func countdownOnTheMainActor(
  _ name: String, _ meeting: Meeting
) async throws -> [String] {
  let scheduler = DispatchQueue.test
  return try await withDeterministicExecution(
    scheduler: scheduler, outsideWorkTimeout: .seconds(20)
  ) { @MainActor in
    await withOutsideWork { await meeting.arrive() }
    var ticks: [String] = []
    let task = Task { @MainActor in
      for remaining in (0..<5).reversed() {
        try await scheduler.sleep(for: .seconds(1))
        ticks.append("\(name) \(remaining)")
        // A hop through another task and back, so that each tick is several jobs.
        _ = await Task.detached { remaining }.value
      }
    }
    var seen: [String] = []
    for step in 1...5 {
      await scheduler.advance(by: .seconds(1))
      #expect(ticks.count == step, "\(name): after \(step) s")
      seen = ticks
    }
    try await task.value
    return seen
  }
}

private func expectedCountdown(_ name: String) -> [String] {
  (0..<5).reversed().map { "\(name) \($0)" }
}

private actor Log {
  private(set) var values: [Int] = []
  func append(_ value: Int) { values.append(value) }
}

/// Lets `count` parties go on once all of them have arrived; resumes them from a Dispatch
/// queue, outside every run, so that each resumption goes to its own run.
private final class Meeting: Sendable {
  private let count: Int
  private let waiting = Mutex<[CheckedContinuation<Void, Never>]>([])
  init(of count: Int) { self.count = count }

  func arrive() async {
    await withCheckedContinuation { continuation in
      let everyone = waiting.withLock { waiting -> [CheckedContinuation<Void, Never>] in
        waiting.append(continuation)
        guard waiting.count == count else { return [] }
        defer { waiting.removeAll() }
        return waiting
      }
      for party in everyone {
        DispatchQueue.global().async { party.resume() }
      }
    }
  }
}

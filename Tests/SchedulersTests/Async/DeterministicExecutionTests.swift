import Dispatch
import Schedulers
import SchedulersTesting
import Synchronization
import Testing

/// An actor between a sleeper and the state the test reads, to prove `advance` waits for hops.
actor Relay {
  private(set) var forwarded: [String] = []
  func forward(_ value: String, to continuation: AsyncStream<String>.Continuation) {
    forwarded.append(value)
    Task { continuation.yield("\(value) via a task") }
  }
}

@Suite("Deterministic execution")
struct DeterministicExecutionTests {
  @Test func advanceReturnsOnlyAfterActorsNestedTasksAndStreamsHaveRun() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      let relay = Relay()
      let (stream, continuation) = AsyncStream.makeStream(of: String.self)
      var received: [String] = []
      let consumer = Task { @MainActor in
        for await value in stream { received.append(value) }
      }
      Task {
        try await scheduler.sleep(for: .seconds(1))
        await relay.forward("tick", to: continuation)
      }
      await scheduler.advance(by: .seconds(1))
      #expect(await relay.forwarded == ["tick"])
      #expect(received == ["tick via a task"])
      continuation.finish()
      await consumer.value
    }
  }

  @Test func taskGroupsAndAsyncLetRunToTheirNextSuspension() async throws {
    let scheduler = DispatchQueue.test
    let log = Recorder<Int>()
    try await withDeterministicExecution(scheduler: scheduler) {
      let start = scheduler.now
      let work = Task {
        await withTaskGroup(of: Void.self) { group in
          for seconds in 1...3 {
            group.addTask {
              try? await scheduler.sleep(for: .seconds(seconds))
              log.append(seconds)
            }
          }
        }
        async let late: Void = {
          try? await scheduler.sleep(until: start.advanced(by: .seconds(4)))
        }()
        await late
        log.append(4)
      }
      await scheduler.advance(by: .seconds(2))
      #expect(log.values == [1, 2])
      await scheduler.advance(by: .seconds(2))
      #expect(log.values == [1, 2, 3, 4])
      await work.value
    }
  }

  @Test func mainActorCodeRunsIsolatedOnTheDriver() async throws {
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      assumeMainActorIsolation()
      let model = CountdownModel(from: 2, scheduler: scheduler.eraseToAnyScheduler())
      model.start()  // schedules `{ @MainActor in }` actions: they pass the main-actor check
      await scheduler.advance(by: .seconds(2))
      #expect(model.secondsLeft == 0)
      #expect(model.message == "Go!")
    }
  }

  @Test(.plainTaskSleepIsVirtual) func plainTaskSleepFollowsTheVirtualClock() async throws {
    let scheduler = DispatchQueue.test
    let woke = Counter()
    try await withDeterministicExecution(scheduler: scheduler) {
      let sleeper = Task {
        try await Task.sleep(for: .seconds(60))
        woke.increment()
      }
      await scheduler.advance(by: .seconds(30))
      #expect(woke.value == 0)
      await scheduler.advance(by: .seconds(31))
      #expect(woke.value == 1)
      try await sleeper.value
    }
  }

  @Test func aBodyThatEndsWithSleepersPendingFailsNamingThemAndWhereTheySlept() async throws {
    let scheduler = DispatchQueue.test
    let line = Mutex<UInt>(0)
    try await withKnownIssue {
      try await withDeterministicExecution(scheduler: scheduler) {
        // One statement, so that `#line` is the line of the sleep.
        _ = (Task { try await scheduler.sleep(for: .seconds(42)) }, line.withLock { $0 = #line })
        await scheduler.advance()
      }
    } matching: { issue in
      issue.description.contains("finished with work still pending")
        && issue.description.contains("due in 42 s")
        && issue.description.contains(
          "scheduled at SchedulersTests/DeterministicExecutionTests.swift:\(line.withLock { $0 })")
    }
    await scheduler.advance(by: .seconds(42))  // let the leftover sleeper go
  }

  /// The user's mistake of forgetting to advance: the test report says what happened, where,
  /// and what was pending, instead of a bare `CancellationError` and a message on standard
  /// error that no test owns.
  @Test func aBodyWaitingForASleeperNobodyAdvancesFailsTheTestNamingWhatWasPending() async throws {
    let scheduler = DispatchQueue.test
    let locations = Recorder<String>()
    var thrown: (any Error)?
    let line = #line + 3
    await withKnownIssue {
      do {
        try await withDeterministicExecution(scheduler: scheduler) {
          try await scheduler.sleep(for: .seconds(1))  // nobody advances: a deadlock
        }
      } catch {
        thrown = error
      }
    } matching: { issue in
      locations.append("\(issue.sourceLocation.map { "\($0.fileName):\($0.line)" } ?? "none")")
      return issue.description.contains("deadlocked")
        && issue.description.contains("Pending: 1 on the test scheduler: an action, due in 1 s")
        && issue.description.contains("DeterministicExecutionTests.swift:\(line + 1)")
    }
    #expect(locations.values == ["DeterministicExecutionTests.swift:\(line)"])
    let error = try #require(thrown as? DeterministicExecutionError)
    #expect(error.description.contains("Pending: 1 on the test scheduler"))
    #expect(scheduler.pendingActionCount == 0)  // cancellation removed the sleeper
  }

  /// Cancelling the task that awaits a run cancels the body at once. Without a scheduler, a
  /// plain `Task.sleep` in a run sleeps in real time, as outside work: before, the run let it
  /// sleep its 5 s and returned "slept".
  @Test func cancellingTheCallerCancelsTheBodyAtOnce() async throws {
    let run = Task {
      try await withDeterministicExecution {
        try await Task.sleep(for: .seconds(5))
        return "slept"
      }
    }
    run.cancel()
    await #expect(throws: CancellationError.self) { try await run.value }
  }

  @Test func outsideWorkIsAwaitedInsteadOfReportedAsADeadlock() async throws {
    let value = try await withDeterministicExecution(scheduler: DispatchQueue.test) {
      await withOutsideWork {
        // A callback from a Dispatch queue: outside the run, so it is declared as such.
        await withCheckedContinuation { continuation in
          DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) {
            continuation.resume(returning: 7)
          }
        }
      }
    }
    #expect(value == 7)
  }

  @Test func theProcessBehavesNormallyAfterARun() async throws {
    try await withDeterministicExecution { @MainActor in
      assumeMainActorIsolation()
    }
    // After the run, jobs go back to the platform's executors: the main queue runs main-actor
    // work, and a continuation resumed from Dispatch resumes its task.
    await MainActor.run { assumeMainActorIsolation() }
    await dispatchHop()
    let detached = await Task.detached { 42 }.value
    #expect(detached == 42)
  }

  @Test func theBodysErrorPassesThrough() async {
    struct Expected: Error {}
    await #expect(throws: Expected.self) {
      try await withDeterministicExecution { throw Expected() }
    }
  }
}

/// Checks, synchronously, that the caller is isolated to the main actor (traps otherwise).
func assumeMainActorIsolation() {
  MainActor.assumeIsolated {}
}

/// Resumes from a Dispatch queue: work from outside any run.
func dispatchHop() async {
  await withCheckedContinuation { continuation in
    DispatchQueue.global().async { continuation.resume() }
  }
}

import Dispatch
import Schedulers

extension DeterministicExecution {
  /// How virtual time moves in a deterministic run: only when the body advances a test
  /// scheduler (``manual``), or by itself whenever nothing else can go on (``autoAdvance``).
  ///
  /// With auto-advance, code that sleeps is tested unchanged, in no real time: whenever no job
  /// of the run is runnable and no outside work is pending, the run's test scheduler runs its
  /// next pending action (a plain `Task.sleep`'s wake-up, a `scheduler.sleep`, a timer tick,
  /// an action scheduled on it), moving its clock there, and the run drains what that made
  /// runnable, until the body returns. Same-instant work keeps the scheduler's order.
  ///
  /// ```swift
  /// @Test func countdownReachesZero() async throws {
  ///   try await withDeterministicExecution(virtualTime: .autoAdvance) { @MainActor in
  ///     let model = CountdownModel()
  ///     await model.countdown()  // three plain one-second Task.sleeps
  ///     #expect(model.secondsLeft == 0)
  ///   }
  /// }
  /// ```
  ///
  /// kotlinx-coroutines-test's `runTest` and Tokio's `start_paused` work this way. Inside an
  /// auto-advancing run, `advance(by:)`, `advance(to:)` and `run()` still work, for tests that
  /// look at the states in between.
  public struct VirtualTime: Sendable, Equatable, CustomStringConvertible {
    let autoAdvances: Bool
    let maxSteps: Int
    let maxVirtualTime: Duration

    /// Virtual time moves only when the body advances the test scheduler. The default.
    public static let manual = VirtualTime(autoAdvances: false, maxSteps: 0, maxVirtualTime: .zero)

    /// Virtual time jumps to the next pending deadline whenever nothing else can go on, for
    /// at most 100,000 steps and one day of virtual time.
    ///
    /// ```swift
    /// try await withDeterministicExecution(virtualTime: .autoAdvance) { await model.load() }
    /// ```
    public static let autoAdvance = autoAdvance()

    /// Auto-advance, with bounds on endless work: the run stops moving the clock, cancels the
    /// body and records a failure naming the actions that kept scheduling themselves once it
    /// has run `maxSteps` actions, or when the next one is due more than `maxVirtualTime`
    /// after the run started.
    ///
    /// ```swift
    /// try await withDeterministicExecution(
    ///   virtualTime: .autoAdvance(maxSteps: 1_000, maxVirtualTime: .seconds(3_600))
    /// ) { await model.syncAll() }
    /// ```
    ///
    /// - Precondition: `maxSteps` is greater than zero, and `maxVirtualTime` is not negative.
    public static func autoAdvance(
      maxSteps: Int = 100_000, maxVirtualTime: Duration = .seconds(86_400)
    ) -> VirtualTime {
      precondition(
        maxSteps > 0, "VirtualTime.autoAdvance(maxSteps:) needs at least one step, got \(maxSteps)")
      precondition(
        maxVirtualTime >= .zero,
        "VirtualTime.autoAdvance(maxVirtualTime:) needs a duration of zero or more, got \(maxVirtualTime)"
      )
      return VirtualTime(autoAdvances: true, maxSteps: maxSteps, maxVirtualTime: maxVirtualTime)
    }

    public var description: String {
      autoAdvances
        ? "auto-advance (at most \(maxSteps) steps, \(describeDuration(maxVirtualTime)))"
        : "manual"
    }
  }

  /// The virtual time since the current run started, on its test scheduler (the one given to
  /// `withDeterministicExecution(scheduler:)`, or the run's own in an auto-advancing run
  /// without one); `nil` outside a run, or in a run without a virtual clock.
  ///
  /// ```swift
  /// try await withDeterministicExecution(virtualTime: .autoAdvance) {
  ///   try await Task.sleep(for: .seconds(3))
  ///   #expect(DeterministicExecution.elapsed == .seconds(3))
  /// }
  /// ```
  ///
  /// What reads real time stays real inside a run, because nothing can intercept it:
  /// `ContinuousClock.now`, `SuspendingClock.now`, `Date()`, `DispatchTime.now()`. Code that
  /// must read virtual time reads it from the scheduler it is given (`scheduler.now`, or
  /// `scheduler.clock.now`).
  public static var elapsed: Duration? { DeterministicRun.current?.elapsed?() ?? nil }

  /// How wide the window was from which the run's last plain `Task.sleep` had its delay
  /// recovered (`nil` outside a run): wider than 500 µs only when the sleeping job's thread was
  /// preempted, or a hand-over past the window's limit let a far rounder duration a thousandth
  /// of the delay above it be taken: the cases where a delay may come out rounder than asked.
  /// For this package's tests of that recovery.
  package static var lastPlainSleepWindow: Duration? {
    DeterministicRun.current?.jobStart.lastWindow
  }

  /// How wide the widest of those windows was, over every plain `Task.sleep` of the run so far
  /// (`nil` outside a run): what a test of several sleeps reads to know whether a preemption
  /// can have moved one of them. For this package's tests of that recovery.
  package static var widestPlainSleepWindow: Duration? {
    DeterministicRun.current?.jobStart.widestWindow
  }

  /// Starts work that runs for the length of the run, in the background: endless work (a
  /// repeating timer, a polling loop) that the body does not wait for. When the body returns,
  /// the run cancels it; ending that way does not fail the test. kotlinx-coroutines-test calls
  /// this `backgroundScope`.
  ///
  /// ```swift
  /// try await withDeterministicExecution(virtualTime: .autoAdvance) {
  ///   DeterministicExecution.background { await model.pollForMessages() }
  ///   try await Task.sleep(for: .seconds(90))
  ///   #expect(model.polls == 3)
  /// }
  /// ```
  ///
  /// Called outside a deterministic run it records a failure at the call (nothing would
  /// cancel the work), and starts the task anyway.
  @discardableResult
  public static func background(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    _ operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    guard let run = DeterministicRun.current else {
      TestFailure.record(
        """
        DeterministicExecution.background was called outside a deterministic run, where \
        nothing cancels its work when the test ends: call it inside \
        withDeterministicExecution { ... } (or a test with the .deterministicExecution trait), \
        or start a Task and cancel it yourself.
        """, fileID: fileID, filePath: filePath, line: line, column: column)
      return Task { await operation() }
    }
    let task = Task { await operation() }
    run.addBackgroundTask(task)
    return task
  }
}

extension DeterministicRun {
  func addBackgroundTask(_ task: Task<Void, Never>) {
    let bodyDone = state.withLock { state -> Bool in
      state.backgroundTasks.append(task)
      return state.bodyFinished
    }
    if bodyDone { task.cancel() }
  }
}

/// Runs `body` deterministically with virtual time that advances itself: the name 0.1.0 gave
/// `withDeterministicExecution(scheduler:virtualTime: .autoAdvance(maxSteps:maxVirtualTime:))`,
/// which also takes `outsideWorkTimeout:`, `droppedTaskErrors:` and `isolation:`.
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// try await withDeterministicExecution(scheduler: scheduler, virtualTime: .autoAdvance) {
///   let model = RetryingModel(scheduler: scheduler.eraseToAnyScheduler())
///   await model.load()  // retries after 1 s, then 2 s
///   #expect(model.attempts == 3)
/// }
/// ```
@available(
  *, deprecated,
  message:
    "use withDeterministicExecution(scheduler:virtualTime: .autoAdvance(maxSteps:maxVirtualTime:)), the same run with every parameter"
)
public func withAutoAdvancingTime<Time, Options, R: Sendable>(
  scheduler: TestScheduler<Time, Options>,
  maxSteps: Int = 100_000, maxVirtualTime: Duration = .seconds(86_400),
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
  try await withDeterministicExecution(
    scheduler: scheduler,
    virtualTime: .autoAdvance(maxSteps: maxSteps, maxVirtualTime: maxVirtualTime),
    fileID: fileID, filePath: filePath, line: line, column: column, body)
}

/// Runs `body` deterministically with virtual time that advances itself, on a test scheduler
/// of the run's own: the name 0.1.0 gave
/// `withDeterministicExecution(virtualTime: .autoAdvance(maxSteps:maxVirtualTime:))`, which
/// also takes `outsideWorkTimeout:`, `droppedTaskErrors:` and `isolation:`.
///
/// ```swift
/// try await withDeterministicExecution(virtualTime: .autoAdvance) {
///   try await Task.sleep(for: .seconds(60))  // returns at once, a minute later in virtual time
/// }
/// ```
@available(
  *, deprecated,
  message:
    "use withDeterministicExecution(virtualTime: .autoAdvance(maxSteps:maxVirtualTime:)), the same run with every parameter"
)
public func withAutoAdvancingTime<R: Sendable>(
  maxSteps: Int = 100_000, maxVirtualTime: Duration = .seconds(86_400),
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
  try await withDeterministicExecution(
    virtualTime: .autoAdvance(maxSteps: maxSteps, maxVirtualTime: maxVirtualTime),
    fileID: fileID, filePath: filePath, line: line, column: column, body)
}

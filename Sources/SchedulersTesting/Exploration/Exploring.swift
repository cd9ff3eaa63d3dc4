import Schedulers
@_spi(Experimental) import SchedulersDeterministic
import Synchronization
import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs `body` under many legal schedules (see ``DeterministicExecution/Exploration``), each a
/// deterministic run, until one fails; then fails the test with that schedule's seed, how many
/// passed before it, and its trace.
///
/// ```swift
/// @Test func twoWithdrawalsNeverOverdraw() async {
///   await exploreSchedules(.exploring(schedules: 500)) {
///     let account = Account(balance: 100)
///     async let first: Void = account.withdraw(80)
///     async let second: Void = account.withdraw(80)
///     _ = await (first, second)
///     #expect(await account.balance >= 0)
///   }
/// }
/// ```
///
/// It is the function form of the trait `.deterministicExecution(.exploring(...))`, for a test
/// that explores only part of its body. Unlike ``withDeterministicExecution(virtualTime:outsideWorkTimeout:droppedTaskErrors:fileID:filePath:line:column:isolation:_:)``
/// it returns nothing and does not throw: its findings are the test's failures, and `body`
/// runs once per schedule.
///
/// So whatever `body` checks must start from what it makes itself: state made outside it (a
/// scheduler passed in, a shared model) carries over from one schedule to the next. First, one
/// run takes jobs first in, first out, as an unexplored run does: if that one fails, the test
/// fails as it would without exploring. Then schedule 1 (seed 0) takes them first in, first out
/// with each hop between actors a job of its own, as every explored schedule does; its length
/// from its first real choice on (the first step where two jobs or more could run) is the span
/// over which PCT places its change points. Needs Swift Testing: each schedule's failures are
/// read as the issues it records. A schedule in which a task of the run drops an error (it ends
/// by throwing when nothing holds its handle) fails like any other, unless `droppedTaskErrors`
/// is `.ignored` (``DeterministicExecution/DroppedTaskErrors``).
///
/// Which schedule a seed names, and the text of the report, may change in a minor release
/// before 1.0: a seed is sure to replay only with the version that printed it.
public func exploreSchedules(
  _ exploration: DeterministicExecution.Exploration = .exploring(),
  virtualTime: DeterministicExecution.VirtualTime = .manual,
  droppedTaskErrors: DeterministicExecution.DroppedTaskErrors = .reported,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ body: @escaping @Sendable () async throws -> Void
) async {
  let location = SourceLocation(
    fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  await explore(exploration, reportingAt: location) {
    try await withDeterministicExecution(
      virtualTime: virtualTime, droppedTaskErrors: droppedTaskErrors, fileID: fileID,
      filePath: filePath, line: line, column: column,
      body)
  }
}

/// Explores schedules: the name 0.1.0 gave
/// ``exploreSchedules(_:virtualTime:droppedTaskErrors:fileID:filePath:line:column:_:)``.
///
/// ```swift
/// await exploreSchedules(.exploring(schedules: 500)) { await checkTheAccount() }
/// ```
@available(
  *, deprecated,
  message:
    "renamed exploreSchedules(_:virtualTime:droppedTaskErrors:_:): it explores many schedules, and does not throw or return as withDeterministicExecution does"
)
public func withDeterministicExecution(
  virtualTime: DeterministicExecution.VirtualTime = .manual,
  exploring exploration: DeterministicExecution.Exploration,
  droppedTaskErrors: DeterministicExecution.DroppedTaskErrors = .reported,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ body: @escaping @Sendable () async throws -> Void
) async {
  await exploreSchedules(
    exploration, virtualTime: virtualTime, droppedTaskErrors: droppedTaskErrors, fileID: fileID,
    filePath: filePath, line: line, column: column, body)
}

/// An issue one schedule recorded, kept to be recorded again once the exploration knows which
/// schedule it was.
struct ScheduleIssue: Sendable {
  var description: String
  var sourceLocation: SourceLocation?
}

/// The exploration loop, shared by the trait and the function: `runOnce` runs the test once,
/// as a deterministic run, which takes its chooser from `ExplorationHook`.
func explore(
  _ exploration: DeterministicExecution.Exploration, reportingAt location: SourceLocation,
  runOnce: @escaping @Sendable () async throws -> Void
) async {
  await ExplorationHook.$crashReport.withValue(PendingCrashReport()) {
    await exploreEachSchedule(exploration, reportingAt: location, runOnce: runOnce)
  }
}

/// The exploration, with `ExplorationHook.crashReport` kept up to date.
private func exploreEachSchedule(
  _ exploration: DeterministicExecution.Exploration, reportingAt location: SourceLocation,
  runOnce: @escaping @Sendable () async throws -> Void
) async {
  // (An exit test's child process runs no `Test`, and records issues for its parent.)
  guard Test.current != nil || ExitTest.current != nil else {
    Issue.record(
      """
      Exploring schedules needs Swift Testing: it reads each schedule's failures as the issues \
      it records. Run this test with Swift Testing (@Test).
      """, sourceLocation: location)
    return
  }
  let exploration = explorationFromEnvironment(exploration)
  if DeterministicExecution.backend != .customExecutors {
    FallbackWarnings.warnOnce(
      "exploring-backend",
      """
      exploring schedules on the \(DeterministicExecution.backend) backend: what a task does \
      inside an actor's turn runs out of the run's sight, so fewer orders are explored and a \
      failing schedule's seed may not replay (each report says whether it did); the \
      custom-executors backend explores and replays exactly
      """)
  }
  if !HopsAsJobs.reachUnstructuredTasks {
    FallbackWarnings.warnOnce(
      "exploring-hops",
      """
      exploring schedules without the task-creation shim (it is compiled in on Linux only, \
      and needs the concurrency runtime linked dynamically): a task made with Task {} or \
      Task.detached runs its hops between actors in place inside an actor's turn, so orders \
      around them are not tried (those of the body and its child tasks are)
      """)
  }
  precondition(
    exploration.maxJobsPerSchedule > 0,
    "Exploration.maxJobsPerSchedule needs at least one job, got \(exploration.maxJobsPerSchedule)")
  // A schedule that stops the process (a trap, a body stuck for good) is a finding too: the
  // report of the schedule in progress is laid out as each run begins, for a crash to print.
  ExplorationCrashReport.arm()
  // First in, first out: the schedule an unexplored run takes, which also says how long a
  // schedule is.
  let baseline = exploration.firstInFirstOutSchedule()
  ExplorationHook.crashReport?.set(
    """
    The process is stopping while exploring schedules (\(exploration)), in the first-in \
    first-out run that comes before the seeded schedules: the order of every deterministic \
    run, so no seed is needed to replay it.
    """)
  let baselineIssues = await runCapturingIssues(chooser: baseline, runOnce)
  guard baselineIssues.isEmpty else {
    // Not a race: the test fails in the order every unexplored run takes.
    Issue.record(
      Comment(
        rawValue: """
          The test fails before any exploring, in the first-in first-out order of every \
          deterministic run; no seed is needed to replay it. What ran: \
          \(baseline.describeTrace())
          """), sourceLocation: location)
    for issue in baselineIssues { record(issue, fallback: location, prefix: "") }
    return
  }
  if case .exhaustive(let bound) = exploration.strategy, exploration.replay == nil {
    return await exploreExhaustively(upTo: bound, exploration, reportingAt: location, runOnce)
  }
  // Every other schedule takes each hop between actors as a job of its own (`hopsAreJobs`).
  // The first of them goes first in, first out: a schedule of its own (seed 0), and the
  // length over which PCT spreads its change points.
  var expectedSteps = 1
  if !exploration.strategy.isExhaustive {
    let hopOrder = exploration.hopsAsJobsSchedule()
    ExplorationHook.crashReport?.set(
      """
      The process is stopping while exploring schedules (\(exploration)), in the first-in \
      first-out schedule with each hop between actors a job of its own, seed \
      \(hexadecimal(0)): replay it with \(exploration.replaySpelling(0)).
      """)
    let issues = await runCapturingIssues(chooser: hopOrder, runOnce)
    if exploration.replay == 0 {
      guard !issues.isEmpty else { return }
      Issue.record(
        Comment(
          rawValue: """
            The replayed schedule fails (the first-in first-out order with each hop between \
            actors a job of its own, seed \(hexadecimal(0))). What ran: \(hopOrder.describeTrace())
            """), sourceLocation: location)
      for issue in issues {
        record(issue, fallback: location, prefix: "In the replayed schedule: ")
      }
      return
    }
    guard issues.isEmpty else {
      let replay = await replayCheck(of: hopOrder, seed: 0, exploration, runOnce)
      Issue.record(
        Comment(
          rawValue: """
            Exploring schedules found a failing one: schedule 1 of \(exploration.schedules) \
            (1 passed before it), the first-in first-out order with each hop between actors a \
            job of its own, \(exploration.strategy), seed \(hexadecimal(0)). The run that passed \
            took the same order with the hops run in place, as a run that does not explore \
            takes a hop onto an idle actor. Replay exactly this schedule with \
            \(exploration.replaySpelling(0)), or, for every exploring test of the process, with \
            SCHEDULERS_EXPLORATION_REPLAY=\(hexadecimal(0)). \(replay) What ran: \
            \(hopOrder.describeTrace())
            """), sourceLocation: location)
      for issue in issues {
        record(issue, fallback: location, prefix: "In schedule \(hexadecimal(0)): ")
      }
      return
    }
    expectedSteps = hopOrder.stepsFromFirstChoice
  }
  if let seed = exploration.replay {
    let chooser = exploration.seededSchedule(seed, expectedSteps: expectedSteps)
    ExplorationHook.crashReport?.set(
      """
      The process is stopping in the replayed schedule (\(exploration.strategy), seed \
      \(hexadecimal(seed))): the seed replays a schedule that stops the process.
      """)
    let issues = await runCapturingIssues(chooser: chooser, runOnce)
    guard !issues.isEmpty else { return }
    Issue.record(
      Comment(
        rawValue: """
          The replayed schedule fails (\(exploration.strategy), seed \(hexadecimal(seed))). \
          What ran: \(chooser.describeTrace())
          """), sourceLocation: location)
    for issue in issues { record(issue, fallback: location, prefix: "In the replayed schedule: ") }
    return
  }
  let shard = explorationShard()
  var passedInThisShard = 0
  // The seeded schedules, after the one with seed 0 (schedule 1, which every shard runs for
  // the span).
  for (index, seed) in exploration.seededSchedules(in: shard) {
    defer { passedInThisShard += 1 }
    let position =
      shard.map {
        "schedule \(index + 1) of \(exploration.schedules), in shard \($0.number)/\($0.count) "
          + "(SCHEDULERS_EXPLORATION_SHARD: this process runs schedules \($0.number), "
          + "\($0.number + $0.count), ...; \(passedInThisShard) of them passed before it)"
      } ?? "schedule \(index + 1) of \(exploration.schedules) (\(index) passed before it)"
    let chooser = exploration.seededSchedule(seed, expectedSteps: expectedSteps)
    ExplorationHook.crashReport?.set(
      """
      The process is stopping while exploring schedules, in \(position), \
      \(exploration.strategy), seed \
      \(hexadecimal(seed)): a schedule that stops the process is a finding. Replay exactly this \
      schedule with \(exploration.replaySpelling(seed)), or, for every exploring test of the \
      process, with SCHEDULERS_EXPLORATION_REPLAY=\(hexadecimal(seed)).
      """)
    let issues = await runCapturingIssues(chooser: chooser, runOnce)
    guard !issues.isEmpty else { continue }
    ExplorationHook.crashReport?.set(
      """
      The process is stopping while the exploration checks and shrinks the failing schedule \
      \(index + 1) (\(exploration.strategy), seed \(hexadecimal(seed))), which failed without \
      stopping it the first time: something the run does not see differed. Replay it with \
      \(exploration.replaySpelling(seed)).
      """)
    let replay = await replayCheck(of: chooser, seed: seed, exploration, runOnce)
    // A livelock is not shrunk: each trial would run to the bound.
    let shrunk = chooser.stoppedChoosing ? nil : await shrink(chooser, runOnce)
    Issue.record(
      Comment(
        rawValue: """
          Exploring schedules found a failing one: \(position), \(exploration.strategy), seed \
          \(hexadecimal(seed)). Replay exactly this schedule with \
          \(exploration.replaySpelling(seed)), or, for every exploring test of the process, \
          with SCHEDULERS_EXPLORATION_REPLAY=\(hexadecimal(seed)). \(replay) What ran: \
          \(chooser.describeTrace())\(shrunk.map { "\nShrunk, the same failure with fewer choices out of first-in first-out order (an explanation; the seed replays the schedule as found): " + $0.describeTrace() } ?? "")
          """), sourceLocation: location)
    for issue in issues {
      record(issue, fallback: location, prefix: "In schedule \(hexadecimal(seed)): ")
    }
    return
  }
}

/// Every schedule with up to `bound` choices out of first-in first-out order, those with fewer
/// first (so a failing one is found with as few as it needs, and needs no shrinking): each is
/// a script of choices, run once; a schedule that passes gives, for each later step that had
/// others that could run, a schedule with one choice more. Ends with a line on standard error
/// that says how many passed, or with the first that fails, reported as a seeded one is.
///
/// With `SCHEDULERS_EXPLORATION_SHARD=k/n`, the schedules are numbered in this fixed order (1
/// the first-in first-out run, 2 the one without a preemption, then the scripts), and this
/// process's are k, k + n, k + 2n, ...: only they count, and only their failures are reported
/// here. A schedule whose passing gives the next level's scripts (every one below the bound)
/// runs in every shard all the same, since each shard generates the whole search; where one
/// of another shard's fails, this shard stops there, as the unsharded exploration would, and
/// leaves the report to that shard. Where every schedule passes, the shards' schedules are
/// exactly the unsharded exploration's, each in one shard; a seed replays without the variable.
private func exploreExhaustively(
  upTo bound: Int, _ exploration: DeterministicExecution.Exploration,
  reportingAt location: SourceLocation,
  _ runOnce: @escaping @Sendable () async throws -> Void
) async {
  let clock = ContinuousClock()
  let started = clock.now
  let shard = explorationShard()
  /// Whether schedule `number` (from 1) is this process's.
  func isThisShards(_ number: Int) -> Bool {
    guard let shard else { return true }
    return (number - 1) % shard.count == shard.number - 1
  }
  let shardSpelling =
    shard.map {
      "shard \($0.number)/\($0.count) (SCHEDULERS_EXPLORATION_SHARD: this process runs "
        + "schedules \($0.number), \($0.number + $0.count), ...)"
    } ?? ""
  /// Says that schedule `number`, of another shard, fails, and that this shard stops there.
  func stopAtAnotherShardsFailure(_ number: Int, seed: UInt64?) {
    TestFailure.writeToStandardError(
      """
      Exploring schedules (\(exploration.strategy)), \(shardSpelling): schedule \(number), \
      another shard's, fails (seed \(seed.map(hexadecimal) ?? "none")); this shard needed it \
      to find the schedules with one preemption more, and stops there, as the exploration \
      without shards would. The shard that runs it reports it.

      """)
  }
  // The schedules of this process that passed: the first-in first-out one (schedule 1) did.
  var passedInThisShard = isThisShards(1) ? 1 : 0
  // The schedule without a preemption: each task goes on while it can.
  let root = ScheduleChooser(exhaustiveScript: [])
  root.maxJobs = exploration.maxJobsPerSchedule
  var ran = 2  // the first-in first-out run, and that one
  ExplorationHook.crashReport?.set(
    "The process is stopping while exploring schedules, in the exhaustive exploration's first "
      + "schedule, without a preemption (\(exploration.replaySpelling(0))).")
  let rootIssues = await runCapturingIssues(chooser: root, runOnce)
  guard rootIssues.isEmpty else {
    guard isThisShards(ran) else { return stopAtAnotherShardsFailure(ran, seed: 0) }
    Issue.record(
      Comment(
        rawValue: """
          Exploring schedules found a failing one: the schedule without a preemption, where \
          each task goes on while it can (1 passed before it, the first-in first-out one), \
          seed 0x0000000000000000\(shard == nil ? "" : ", in " + shardSpelling). Replay \
          exactly this schedule with \(exploration.replaySpelling(0)). What ran: \
          \(root.describeTrace())
          """), sourceLocation: location)
    for issue in rootIssues { record(issue, fallback: location, prefix: "In schedule 0x0: ") }
    return
  }
  if isThisShards(ran) { passedInThisShard += 1 }
  var level = schedulesWithOneChoiceMore(than: [], ran: root)
  for preemptions in 0..<bound {
    var next: [[Int]] = []
    // The last level gives no scripts: a shard runs only its own schedules of it.
    let generates = preemptions + 1 < bound
    for script in level {
      guard ran < exploration.schedules else {
        let count =
          shard == nil
          ? "\(ran) schedules ran"
          : "\(shardSpelling): \(passedInThisShard) of this shard's schedules, of the first "
            + "\(ran), ran"
        TestFailure.writeToStandardError(
          """
          Exploring schedules (\(exploration.strategy)): \(count) and none failed, \
          but the cap of \(exploration.schedules) schedules stopped the exploration with \
          schedules of \(preemptions + 1) preemptions still to run: no proof. Raise \
          `schedules`, or lower the bound.

          """)
        return
      }
      ran += 1
      let isOwn = isThisShards(ran)
      guard isOwn || generates else { continue }
      let chooser = ScheduleChooser(exhaustiveScript: script)
      chooser.maxJobs = exploration.maxJobsPerSchedule
      let seed = ScheduleChooser.seed(ofScript: script)
      let replayLine =
        seed.map {
          "Replay exactly this schedule with \(exploration.replaySpelling($0)), or, for every "
            + "exploring test of the process, with SCHEDULERS_EXPLORATION_REPLAY=\(hexadecimal($0))."
        } ?? "Its choices do not fit in a seed (a step past 32,767 or a choice past 63)."
      let position =
        shard == nil
        ? "schedule \(ran) of every schedule up to \(bound) preemptions (\(ran - 1) passed before it)"
        : "schedule \(ran) of every schedule up to \(bound) preemptions, in \(shardSpelling); "
          + "\(passedInThisShard) of this shard's passed before it"
      ExplorationHook.crashReport?.set(
        "The process is stopping while exploring schedules, in \(position), seed "
          + "\(seed.map(hexadecimal) ?? "none"): a schedule that stops the process is a finding. "
          + replayLine)
      let issues = await runCapturingIssues(chooser: chooser, runOnce)
      guard issues.isEmpty else {
        guard isOwn else { return stopAtAnotherShardsFailure(ran, seed: seed) }
        let replay =
          if let seed { await replayCheck(of: chooser, seed: seed, exploration, runOnce) } else {
            ""
          }
        Issue.record(
          Comment(
            rawValue: """
              Exploring schedules found a failing one: \(position), with \(preemptions + 1) \
              preemption\(preemptions == 0 ? "" : "s"), seed \
              \(seed.map(hexadecimal) ?? "none"). \(replayLine) \(replay) What ran: \
              \(chooser.describeTrace())
              """), sourceLocation: location)
        for issue in issues {
          record(
            issue, fallback: location,
            prefix: "In schedule \(seed.map(hexadecimal) ?? "\(ran)"): ")
        }
        return
      }
      if isOwn { passedInThisShard += 1 }
      if generates { next += schedulesWithOneChoiceMore(than: script, ran: chooser) }
    }
    level = next
  }
  let tenths = Int((clock.now - started) / .milliseconds(100))
  let elapsed = "\(tenths / 10).\(tenths % 10) s"
  let schedules =
    shard == nil
    ? "all \(ran) distinct schedules up to \(bound) preemptions"
    : "in \(shardSpelling), this shard's \(passedInThisShard) of the \(ran) distinct schedules "
      + "up to \(bound) preemptions"
  TestFailure.writeToStandardError(
    """
    Exploring schedules (\(exploration.strategy)): \(schedules) \
    (a preemption: running another job than the one that goes on with the task \
    that ran last) ran, and none fails \
    (\(elapsed))\(shard == nil ? "" : "; the other shards' lines complete the proof").

    """)
}

/// The scripts of the schedules that make one choice out of first-in first-out order more than
/// `script`, after it: at each later step of the run that had others that could run, each of
/// them in turn.
private func schedulesWithOneChoiceMore(than script: [Int], ran run: ScheduleChooser) -> [[Int]] {
  let choices = run.choices
  var scripts: [[Int]] = []
  for step in script.count..<run.steps.count where run.steps[step].alternatives > 0 {
    for choice in 1...run.steps[step].alternatives {
      scripts.append(Array(choices[..<step]) + [choice])
    }
  }
  return scripts
}

/// Replays `seed` as a user's replay does (a first-in first-out run for the span, then the
/// seeded one) and says whether it took the schedule of `found` again and failed: a seed is
/// handed out with what a replay of it was seen to do, never on trust. Where it does not
/// replay, says why it may not on this backend.
private func replayCheck(
  of found: ScheduleChooser, seed: UInt64, _ exploration: DeterministicExecution.Exploration,
  _ runOnce: @escaping @Sendable () async throws -> Void
) async -> String {
  let again: ScheduleChooser
  let failedAgain: Bool
  if exploration.strategy.isExhaustive {
    again = exploration.seededSchedule(seed, expectedSteps: 1)
    failedAgain = !(await runCapturingIssues(chooser: again, runOnce)).isEmpty
  } else {
    // As the exploration does: the first-in first-out schedule with hops as jobs first, which
    // is seed 0 and gives the others their span.
    let hopOrder = exploration.hopsAsJobsSchedule()
    let hopOrderFailed = !(await runCapturingIssues(chooser: hopOrder, runOnce)).isEmpty
    if seed == 0 {
      again = hopOrder
      failedAgain = hopOrderFailed
    } else {
      again = exploration.seededSchedule(seed, expectedSteps: hopOrder.stepsFromFirstChoice)
      failedAgain = !(await runCapturingIssues(chooser: again, runOnce)).isEmpty
    }
  }
  if failedAgain, again.ranTheSameJobs(as: found) {
    return
      "The seed was replayed once here: the same jobs ran in the same order, and it failed again."
  }
  let what = failedAgain ? "it failed again, but after other jobs than these" : "it passed"
  let whereItDiffered = again.describeFirstDifference(from: found).map { " " + $0 } ?? ""
  let why: String
  switch DeterministicExecution.backend {
  case .customExecutors:
    why = """
      Something the run does not see differed between the two runs (real time, state kept \
      from one run to the next, a thread or a queue of the test's own).
      """
  case .runtimeHooks, .globalHookAndMainQueue:
    why = """
      On the \(DeterministicExecution.backend) backend, what a task does inside an actor's turn \
      (its yields, the tasks it starts) runs out of the run's sight, so the run's jobs vary from \
      run to run and a seed need not name one schedule; exploring replays seeds exactly on the \
      custom-executors backend (Swift 6.3 toolchains, docs/deterministic-execution.md).
      """
  case .unavailable:
    why = ""
  }
  return
    "This seed did not replay here: run again, \(what).\(whereItDiffered) \(why) Read the trace as an explanation."
}

/// The failing schedule of `found` with as many of its out-of-order choices undone as still
/// fail, as shuttle and Coyote shrink theirs: first the shortest prefix of its choices that
/// still fails with first-in first-out choices after it, then each remaining out-of-order
/// choice undone, last first, where the test still fails without it. `nil` when nothing could
/// be undone. At most 64 runs.
private func shrink(
  _ found: ScheduleChooser, _ runOnce: @escaping @Sendable () async throws -> Void
) async -> ScheduleChooser? {
  var runs = 0
  func fails(_ script: [Int]) async -> ScheduleChooser? {
    guard runs < 64 else { return nil }
    runs += 1
    let trial = ScheduleChooser(script: script)
    trial.maxJobs = found.maxJobs
    return (await runCapturingIssues(chooser: trial, runOnce)).isEmpty ? nil : trial
  }
  var script = found.choices
  var best: ScheduleChooser?
  // The shortest prefix: cut after each out-of-order choice in turn, earliest first.
  for cut in script.indices where script[cut] != 0 && cut + 1 < script.count {
    if let trial = await fails(Array(script[...cut])) {
      script = trial.choices
      best = trial
      break
    }
  }
  for step in script.indices.reversed() where script[step] != 0 {
    var attempt = script
    attempt[step] = 0
    guard let trial = await fails(attempt) else { continue }
    script = trial.choices
    best = trial
  }
  guard let best,
    best.steps.filter(\.preempted).count < found.steps.filter(\.preempted).count
  else { return nil }
  return best
}

extension DeterministicExecution.ExplorationStrategy {
  fileprivate var isExhaustive: Bool {
    if case .exhaustive = self { return true }
    return false
  }
}

/// Runs the test once with `chooser`, and returns the issues it recorded (kept from the test
/// until the exploration has said which schedule they came from).
private func runCapturingIssues(
  chooser: ScheduleChooser, _ runOnce: @escaping @Sendable () async throws -> Void
) async -> [ScheduleIssue] {
  let issues = Mutex<[ScheduleIssue]>([])
  let keep: KnownIssueMatcher = { issue in
    let kept = ScheduleIssue(description: issue.description, sourceLocation: issue.sourceLocation)
    issues.withLock { $0.append(kept) }
    return true
  }
  let body: () async throws -> Void = {
    try await ExplorationHook.$chooser.withValue(chooser) { try await runOnce() }
  }
  do {
    try await withKnownIssue(isIntermittent: true, body, matching: keep)
  } catch {
    // Rethrown only when the matcher declined it, which `keep` never does; kept all the same.
    let kept = ScheduleIssue(description: "Caught error: \(error)", sourceLocation: nil)
    issues.withLock { $0.append(kept) }
  }
  return issues.withLock { $0 }
}

private func record(_ issue: ScheduleIssue, fallback: SourceLocation, prefix: String) {
  Issue.record(
    Comment(rawValue: prefix + issue.description),
    sourceLocation: issue.sourceLocation ?? fallback)
}

/// The part of an exploration this process runs, from `SCHEDULERS_EXPLORATION_SHARD`
/// (`3/8`: schedules 3, 11, 19, ... of the same seeded sequence), so that a CI matrix splits one
/// long exploration across machines; `nil` when unset: every schedule.
package func explorationShard() -> (number: Int, count: Int)? {
  EnvironmentValue.read(
    "SCHEDULERS_EXPLORATION_SHARD",
    expected: "a shard number and a shard count, as 3/8 (the number from 1 to the count)"
  ) { text -> (number: Int, count: Int)? in
    let parts = text.filter { $0 != " " }.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let number = Int(parts[0]), let count = Int(parts[1]),
      count >= 1, (1...count).contains(number)
    else { return nil }
    return (number, count)
  }
}

/// The exploration as the environment amends it: `SCHEDULERS_EXPLORATION_REPLAY` replays one
/// schedule, `SCHEDULERS_EXPLORATION_SEED` starts from another seed.
package func explorationFromEnvironment(
  _ exploration: DeterministicExecution.Exploration
) -> DeterministicExecution.Exploration {
  var exploration = exploration
  if let replay = environmentNumber("SCHEDULERS_EXPLORATION_REPLAY") {
    exploration.replay = replay
  }
  if let seed = environmentNumber("SCHEDULERS_EXPLORATION_SEED") { exploration.seed = seed }
  return exploration
}

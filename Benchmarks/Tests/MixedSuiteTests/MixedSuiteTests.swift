// A mixed suite, the way an app's suite is: a few hundred ordinary async tests (an actor, a few
// hops, a short real sleep) and, when `MIXED_SUITE_DETERMINISTIC=1`, three deterministic tests
// and one exploring test beside them, all in one process, run in parallel by Swift Testing.
// Every test writes one line, `kind index start end steps` (nanoseconds of the monotonic
// clock), to the file `MIXED_SUITE_RECORD` names; an ordinary test's steps are the time and
// thread of its start and of each return from its sleep, a deterministic test's those of its
// run's body's start and end, and the exploring test adds a line `schedule index time thread`
// for the start of each schedule's body.
// `Benchmarks/mixed-suite.sh` runs the suite with and without the deterministic tests and
// compares the ordinary tests' durations; with `MIXED_SUITE_BUSY_MS`, a plain test that keeps
// a core busy that long stands beside the ordinary tests instead (the control).

import Dispatch
import Foundation
import Schedulers
import SchedulersTesting
import StoryModels
import Testing

// MARK: - The record

/// Whether the deterministic and exploring tests run: the "with" half of the comparison.
let deterministicTestsEnabled =
  ProcessInfo.processInfo.environment["MIXED_SUITE_DETERMINISTIC"] == "1"

/// How many schedules the exploring test tries (`MIXED_SUITE_SCHEDULES`, default 1,000).
let exploredSchedules =
  ProcessInfo.processInfo.environment["MIXED_SUITE_SCHEDULES"].flatMap(Int.init) ?? 1_000

/// The record file, opened once for appending: each line is one `write`, whole.
let recordFile: Int32? = ProcessInfo.processInfo.environment["MIXED_SUITE_RECORD"].map {
  open($0, O_WRONLY | O_APPEND | O_CREAT, 0o644)
}

/// Nanoseconds of the monotonic clock, the same in every test of the process.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The calling thread, as a number.
func currentThread() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}

/// A moment of a test: when, and on which thread.
struct Step {
  var time = now()
  var thread = currentThread()
}

/// Appends `kind index start end steps` to the record.
func record(_ kind: String, _ index: Int, from start: UInt64, steps: [Step] = []) {
  let end = now()
  let steps = steps.isEmpty ? "-" : steps.map { "\($0.time):\($0.thread)" }.joined(separator: ",")
  write("\(kind) \(index) \(start) \(end) \(steps)\n")
}

/// Appends `line` to the record, whole.
func write(_ line: String) {
  guard let recordFile, recordFile >= 0 else { return }
  let bytes = Array(line.utf8)
  _ = bytes.withUnsafeBytes { write(recordFile, $0.baseAddress, $0.count) }
}

// MARK: - Ordinary tests

/// What an ordinary test talks to: an actor, as a model's store or client is.
actor Ledger {
  private(set) var entries: [Int] = []
  func add(_ value: Int) { entries.append(value) }
  var total: Int { entries.reduce(0, +) }
}

@Suite("Ordinary tests")
struct OrdinaryTests {
  /// Three rounds of two hops to the actor and a 1 ms real sleep, then a check: the kind of
  /// async test a suite has hundreds of.
  @Test(arguments: 0..<300)
  func ordinary(_ index: Int) async throws {
    var steps = [Step()]
    let ledger = Ledger()
    for round in 1...3 {
      await ledger.add(round)
      await ledger.add(index)
      try await Task.sleep(for: .milliseconds(1))
      steps.append(Step())
    }
    #expect(await ledger.total == 6 + 3 * index)
    record("ordinary", index, from: steps[0].time, steps: steps)
  }
}

// MARK: - Deterministic tests, and one exploring test

@Suite("Deterministic tests", .enabled(if: deterministicTestsEnabled))
struct DeterministicTests {
  /// A debounced search on a test scheduler: three keystrokes 100 ms apart, one search.
  @Test func debouncedSearch() async throws {
    let start = now()
    let body = StepLog()
    let scheduler = DispatchQueue.test
    try await withDeterministicExecution(scheduler: scheduler) { @MainActor in
      body.append(Step())
      let model = DebouncedSearchModel(
        sleep: { try await scheduler.sleep(for: .duration($0)) }, api: SearchAPI())
      model.queryChanged("s")
      await scheduler.advance(by: .milliseconds(100))
      model.queryChanged("sw")
      await scheduler.advance(by: .milliseconds(100))
      model.queryChanged("swift")
      await scheduler.advance(by: .milliseconds(299))
      #expect(model.searches == 0)
      await scheduler.advance(by: .milliseconds(1))
      #expect(model.results == ["swift result"])
      #expect(model.searches == 1)
      body.append(Step())
    }
    record("deterministic", 0, from: start, steps: body.steps)
  }

  /// A call that outlasts its timeout on a test scheduler throws at the timeout, in no real
  /// time.
  @Test func aSlowCallTimesOut() async throws {
    let start = now()
    let body = StepLog()
    let test = DispatchQueue.test
    try await withDeterministicExecution(scheduler: test) {
      body.append(Step())
      let scheduler = test.eraseToAnyScheduler()
      let call = Task {
        try await withTimeout(.seconds(5), scheduler: scheduler) {
          try await scheduler.sleep(for: .seconds(10))
          return 42
        }
      }
      await test.advance(by: .seconds(5))
      await #expect(throws: TimeoutError.self) { try await call.value }
      #expect(test.pendingActionCount == 0)
      body.append(Step())
    }
    record("deterministic", 1, from: start, steps: body.steps)
  }

  /// A countdown that sleeps with plain `Task.sleep`, unchanged, on the run's virtual clock.
  @Test(.deterministicExecution(.autoAdvance)) func countdownSleepsUnchanged() async {
    let start = Step()  // the trait's run is already in progress: this is its body
    let model = CountdownActor(sleep: { try await Task.sleep(for: $0) })
    await model.start()
    try? await Task.sleep(for: .seconds(4))
    #expect(await model.secondsLeft == 0)
    #expect(await model.finished)
    record("deterministic", 2, from: start.time, steps: [start, Step()])
  }
}

/// An account that checks the balance in the same turn of the actor as it takes the money.
actor Account {
  private(set) var balance = 100
  func withdraw(_ amount: Int) async {
    await Task.yield()  // the round trip to the bank's approval
    guard balance >= amount else { return }
    balance -= amount
  }
}

@Suite("Exploring test", .enabled(if: deterministicTestsEnabled))
struct ExploringTests {
  /// Two withdrawals of 80 from 100 never overdraw, under `exploredSchedules` schedules.
  @Test func twoWithdrawalsNeverOverdraw() async {
    let start = now()
    let schedules = StepLog()
    await exploreSchedules(.exploring(schedules: exploredSchedules)) {
      schedules.append(Step())
      let account = Account()
      async let first: Void = account.withdraw(80)
      async let second: Void = account.withdraw(80)
      _ = await (first, second)
      #expect(await account.balance == 20)
    }
    record("exploring", 0, from: start)
    for (index, step) in schedules.steps.enumerated() {
      write("schedule \(index) \(step.time) \(step.thread)\n")
    }
  }
}

/// Steps taken inside a run's body, which may run on another thread than the test's.
/// (`NSLock`, not `Mutex`: the thread sanitizer sees a pthread lock.)
final class StepLog: @unchecked Sendable {
  private let lock = NSLock()
  private var started: [Step] = []
  func append(_ step: Step) { lock.withLock { started.append(step) } }
  var steps: [Step] { lock.withLock { started } }
}

// MARK: - The control: a plain test as busy as the exploration

/// Whether the busy test runs instead (`MIXED_SUITE_BUSY_MS`, its length in milliseconds).
let busyMilliseconds = ProcessInfo.processInfo.environment["MIXED_SUITE_BUSY_MS"].flatMap(Int.init)

@Suite("Busy control", .enabled(if: busyMilliseconds != nil))
struct BusyControl {
  /// Computes for `busyMilliseconds` in slices of 0.1 ms with a yield between them, keeping
  /// one core busy as the exploration does, with no deterministic run: what any busy test
  /// beside them costs the ordinary tests.
  @Test func busy() async {
    let start = now()
    let length = UInt64(busyMilliseconds ?? 0) * 1_000_000
    var sum: UInt64 = 0
    while now() - start < length {
      let slice = now()
      while now() - slice < 100_000 { sum &+= 1 }
      await Task.yield()
    }
    #expect(sum > 0 || length == 0)
    record("busy", 0, from: start)
  }
}

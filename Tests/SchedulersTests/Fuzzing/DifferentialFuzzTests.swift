import Dispatch
import Schedulers
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a program on `TestScheduler`. `@unchecked Sendable`: the fuzzer is single-threaded;
/// actions run synchronously on the thread that advances.
final class TestSchedulerInterpreter: @unchecked Sendable {
  /// Every change to its queue checks the queue's invariants.
  let scheduler: TestScheduler<Int, Never> = {
    let scheduler = TestScheduler<Int, Never>(now: 0)
    scheduler.checkInvariantsOnEveryChange()
    return scheduler
  }()
  var log: [FuzzProgram.Fired] = []
  private var cancellables: [Int: [any Cancellable]] = [:]
  /// The tasks waiting for pending work, to be ended and checked after the program.
  var waiters: [Task<Void, any Error>] = []

  func perform(_ operation: FuzzProgram.Operation) {
    switch operation {
    case .schedule(let id, let offset, let interval, let cancellable, let nested):
      let action: @Sendable () -> Void = { [unowned self] in
        log.append(.init(id: id, now: scheduler.now))
        for inner in nested { perform(inner) }
      }
      let date = scheduler.now + offset
      if let interval {
        cancellables[id, default: []].append(
          scheduler.schedule(after: date, interval: interval, action))
      } else if cancellable {
        cancellables[id, default: []].append(
          scheduler.scheduleCancellable(after: date, tolerance: 0, options: nil, action))
      } else {
        scheduler.schedule(after: date, action)
      }
    case .cancel(let id): cancellables[id]?.forEach { $0.cancel() }
    case .advanceBy(let stride): scheduler.advance(by: stride)
    case .advanceTo(let instant): scheduler.advance(to: instant)
    case .run: scheduler.run(maxActions: 100_000)
    case .waitForPendingWork(let count, let cancelled):
      let scheduler = scheduler
      let waiter = Task {
        try await scheduler.waitForPendingWork(count: count, timeout: .seconds(60))
      }
      waiters.append(waiter)
      if cancelled { DispatchQueue.global().async { waiter.cancel() } }
    }
  }

  /// Ends every waiter and says how any of them ended other than satisfied or cancelled.
  func endWaiters() async -> [String] {
    for waiter in waiters { waiter.cancel() }
    var wrong: [String] = []
    for waiter in waiters {
      if case .failure(let error) = await waiter.result, !(error is CancellationError) {
        wrong.append("\(error)")
      }
    }
    return wrong
  }
}

/// Runs a program on the reference model.
final class ReferenceInterpreter {
  let model = ReferenceScheduler(now: 0)

  func perform(_ operation: FuzzProgram.Operation) {
    switch operation {
    case .schedule(let id, let offset, let interval, let cancellable, let nested):
      model.schedule(
        id: id, at: model.now + offset, interval: interval, cancellable: cancellable,
        nested: nested)
    case .cancel(let id): model.cancel(id: id)
    case .advanceBy(let stride): model.advance(to: model.now + stride, perform: perform)
    case .advanceTo(let instant): model.advance(to: instant, perform: perform)
    case .run: model.run(maxActions: 100_000, perform: perform)
    case .waitForPendingWork: break
    }
  }
}

/// Where a program's two runs first disagreed, or `nil` if they never did.
func firstDisagreement(in program: FuzzProgram) -> String? {
  firstDisagreement(in: program, on: TestSchedulerInterpreter())
}

func firstDisagreement(in program: FuzzProgram, on real: TestSchedulerInterpreter) -> String? {
  let reference = ReferenceInterpreter()
  for (index, operation) in program.operations.enumerated() {
    // run() never ends on repeating work; the scheduler's bound for that is tested elsewhere.
    if case .run = operation, reference.model.hasRepeatingWork { continue }
    real.perform(operation)
    reference.perform(operation)
    let realState = (
      real.log, real.scheduler.now, real.scheduler.pendingActionCount, real.scheduler.nextDeadline
    )
    let modelState = (
      reference.model.log, reference.model.now, reference.model.pendingCount,
      reference.model.nextDeadline
    )
    if realState != modelState {
      return """
        after operation \(index) (\(operation)):
          TestScheduler: ran \(realState.0), now \(realState.1), \(realState.2) pending, next \(realState.3.map(String.init) ?? "none")
          reference:     ran \(modelState.0), now \(modelState.1), \(modelState.2) pending, next \(modelState.3.map(String.init) ?? "none")
        """
    }
  }
  return nil
}

/// Removes operations, one at a time, while the program still fails: a short program to read.
func minimise(_ program: FuzzProgram) -> FuzzProgram {
  var program = program
  var removedOne = true
  while removedOne {
    removedOne = false
    for index in program.operations.indices.reversed() {
      var candidate = program
      candidate.operations.remove(at: index)
      if firstDisagreement(in: candidate) != nil {
        program = candidate
        removedOne = true
      }
    }
  }
  return program
}

@Suite("Differential fuzzing against a reference model")
struct DifferentialFuzzTests {
  /// Programs per run: 2,000 in CI; `FUZZ_PROGRAMS=1000000` for a long run.
  static var programCount: Int {
    getenv("FUZZ_PROGRAMS").flatMap { Int(String(cString: $0)) } ?? 2_000
  }

  @Test(.timeLimit(.minutes(10)), .offTheCooperativePool)
  func theTestSchedulerRunsEveryProgramExactlyAsTheReferenceModelDoes() async {
    let seedBase = getenv("FUZZ_SEED").flatMap { UInt64(String(cString: $0)) } ?? 0x5EED_0000
    for offset in 0..<UInt64(Self.programCount) {
      let seed = seedBase &+ offset
      let program = FuzzProgram.generate(seed: seed, length: 40)
      let real = TestSchedulerInterpreter()
      let disagreement = firstDisagreement(in: program, on: real)
      let wrongWaits = await real.endWaiters()
      if !wrongWaits.isEmpty {
        Issue.record(
          "A waiter ended other than satisfied or cancelled: \(wrongWaits). Reproduce with FUZZ_SEED=\(seed) FUZZ_PROGRAMS=1.\n\(program)"
        )
        return
      }
      if disagreement != nil {
        let minimal = minimise(program)
        Issue.record(
          """
          TestScheduler and the reference model disagree. Reproduce with FUZZ_SEED=\(seed) FUZZ_PROGRAMS=1.
          Minimised program:
          \(minimal)
          \(firstDisagreement(in: minimal) ?? "")
          """)
        return
      }
    }
  }

  @Test func theGeneratorIsDeterministicForASeed() {
    #expect(
      FuzzProgram.generate(seed: 42, length: 40).description
        == FuzzProgram.generate(seed: 42, length: 40).description)
  }
}

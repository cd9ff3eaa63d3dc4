import Synchronization

/// The concurrency of a time-based operator: one task reading the upstream, one timer on the
/// scheduler, a buffer of outputs, and the consumer's continuation, around a state machine.
///
/// - The upstream task starts at the consumer's first `next()` and reads as fast as the
///   upstream produces, so the operator's timing follows the upstream's, not the consumer's.
///   Outputs wait in a buffer until the consumer asks for them.
/// - Timers are plain `scheduleCancellable` actions. Each carries an id; a timer that fires
///   after it was replaced or cancelled (a real scheduler may already be running it) is
///   ignored.
/// - The scheduler is never called with the lock held: an immediate scheduler runs a timer
///   inside `scheduleCancellable`, and the timer takes the lock.
/// - When the sequence ends (a terminal output, the consumer's cancellation, or the iterator's
///   release) the upstream task is cancelled, the timer cancelled, and the consumer resumed:
///   nothing outlives the iteration.
final class TimedOperatorStorage<Base: AsyncSequence & Sendable, S: Scheduler & Sendable, Machine>:
  Sendable
where
  Base.Element: Sendable, Machine: TimedOperatorMachine, Machine.Input == Base.Element,
  Machine.UpstreamFailure == Base.Failure, Machine.Time == S.SchedulerTimeType,
  S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable
{
  typealias Element = Machine.Element
  typealias Failure = Machine.Failure
  typealias Output = TimedOperatorOutput<Element, Failure>
  typealias Effects = TimedOperatorEffects<Element, Failure, S.SchedulerTimeType>
  typealias Downstream = CheckedContinuation<Result<Element?, Failure>, Never>

  private enum Phase {
    case idle
    case running(upstream: Task<Void, Never>?)
    /// Nothing more will be produced; buffered outputs may remain.
    case ended
  }

  private struct State {
    var machine: Machine
    var phase = Phase.idle
    var outputs: [Output] = []
    var outputsHead = 0
    var downstream: Downstream?
    var timer = OperatorTimer<S.SchedulerTimeType>()
  }

  /// What to do once the lock is released.
  private struct Work {
    var resume: (Downstream, Result<Element?, Failure>)?
    var cancelTimer: (any Cancellable)?
    var startTimer: OperatorTimer<S.SchedulerTimeType>.Start?
    var cancelUpstream: Task<Void, Never>?
  }

  private let base: Base
  private let scheduler: S
  private let state: Mutex<State>

  init(base: Base, scheduler: S, machine: Machine) {
    self.base = base
    self.scheduler = scheduler
    self.state = Mutex(State(machine: machine))
  }

  // MARK: The consumer

  /// The next output: an element, `nil` at the end, or the failure.
  func next() async -> Result<Element?, Failure> {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: Downstream) in
        // The scheduler is never called with the lock held: the first `next()` reads the time
        // it starts at before taking the lock (later ones do not need it).
        let isFirst = state.withLock { state -> Bool in
          if case .idle = state.phase { return true }
          return false
        }
        let startedAt = isFirst ? scheduler.now : nil
        var startUpstream = false
        let work = state.withLock { state -> Work in
          var work = Work()
          if let output = Self.popOutput(&state) {
            work.resume = (continuation, Self.result(of: output))
            return work
          }
          switch state.phase {
          case .ended:
            work.resume = (continuation, .success(nil))
          case .running:
            precondition(
              state.downstream == nil,
              "An operator's iterator was used by two tasks at once; iterate it from one task.")
            state.downstream = continuation
          case .idle:
            guard let startedAt else {
              preconditionFailure(
                "An operator's iterator was used by two tasks at once; iterate it from one task.")
            }
            state.downstream = continuation
            state.phase = .running(upstream: nil)
            startUpstream = true
            let effects = state.machine.started(at: startedAt)
            Self.apply(effects, to: &state, work: &work)
          }
          return work
        }
        perform(work)
        if startUpstream { launchUpstream() }
      }
    } onCancel: {
      cancel()
    }
  }

  /// Ends the sequence now: the consumer was cancelled or released its iterator.
  func cancel() {
    let work = state.withLock { state -> Work in
      var work = Work()
      if case .running(let upstream) = state.phase { work.cancelUpstream = upstream }
      state.phase = .ended
      state.outputs.removeAll()
      state.outputsHead = 0
      work.cancelTimer = state.timer.clear()
      if let downstream = state.downstream {
        state.downstream = nil
        work.resume = (downstream, .success(nil))
      }
      return work
    }
    perform(work)
  }

  // MARK: The upstream

  private func launchUpstream() {
    let task = Task { [base, self] in
      var iterator = base.makeAsyncIterator()
      while true {
        switch await Self.pull(&iterator) {
        case .success(let element?):
          guard handle({ machine, now in machine.received(element, at: now) }) else { return }
        case .success(nil):
          _ = handle { machine, now in machine.upstreamFinished(at: now) }
          return
        case .failure(let error):
          _ = handle { machine, now in machine.upstreamFailed(error, at: now) }
          return
        }
      }
    }
    let cancelNow = state.withLock { state -> Bool in
      guard case .running = state.phase else { return true }
      state.phase = .running(upstream: task)
      return false
    }
    if cancelNow { task.cancel() }
  }

  private static func pull(_ iterator: inout Base.AsyncIterator) async -> Result<
    Base.Element?, Base.Failure
  > {
    do {
      return .success(try await iterator.next(isolation: nil))
    } catch {
      return .failure(error)
    }
  }

  // MARK: The timer

  private func timerFired(id: UInt64) {
    _ = handleEvent { state, now in
      guard state.timer.fire(id) else { return nil }
      return state.machine.timerFired(at: now)
    }
  }

  // MARK: Events

  /// Feeds one event to the machine, unless the sequence has ended. Returns whether the
  /// sequence goes on.
  private func handle(_ event: (inout Machine, S.SchedulerTimeType) -> Effects) -> Bool {
    handleEvent { state, now in event(&state.machine, now) }
  }

  /// Feeds one event, which may look at the whole state first and decline (return `nil`).
  private func handleEvent(
    _ event: (inout State, S.SchedulerTimeType) -> Effects?
  ) -> Bool {
    let now = scheduler.now
    var goesOn = true
    let work = state.withLock { state -> Work in
      var work = Work()
      guard case .running = state.phase else {
        goesOn = false
        return work
      }
      guard let effects = event(&state, now) else { return work }
      Self.apply(effects, to: &state, work: &work)
      if case .ended = state.phase { goesOn = false }
      return work
    }
    perform(work)
    return goesOn
  }

  /// Records a machine's effects: buffers its outputs, hands one to a waiting consumer, notes
  /// the timer change, and ends the sequence on a terminal output.
  private static func apply(_ effects: Effects, to state: inout State, work: inout Work) {
    (work.cancelTimer, work.startTimer) = state.timer.apply(effects.timer)
    state.outputs.append(contentsOf: effects.outputs)
    if effects.outputs.contains(where: { $0.isTerminal }) {
      if case .running(let upstream) = state.phase { work.cancelUpstream = upstream }
      state.phase = .ended
      if state.timer.isSet {
        work.cancelTimer = state.timer.clear()
        work.startTimer = nil
      }
    }
    if let downstream = state.downstream, let output = popOutput(&state) {
      state.downstream = nil
      work.resume = (downstream, result(of: output))
    }
  }

  private func perform(_ work: Work) {
    work.cancelTimer?.cancel()
    work.cancelUpstream?.cancel()
    if let start = work.startTimer {
      scheduler.startOperatorTimer(start) { [weak self] id in
        self?.timerFired(id: id)
      } attach: { id, cancellable in
        state.withLock { $0.timer.attach(cancellable, to: id) }
      }
    }
    if let (continuation, result) = work.resume { continuation.resume(returning: result) }
  }

  private static func popOutput(_ state: inout State) -> Output? {
    guard state.outputsHead < state.outputs.count else { return nil }
    let output = state.outputs[state.outputsHead]
    state.outputsHead += 1
    if state.outputsHead == state.outputs.count {
      state.outputs.removeAll(keepingCapacity: true)
      state.outputsHead = 0
    }
    return output
  }

  private static func result(of output: Output) -> Result<Element?, Failure> {
    switch output {
    case .element(let element): .success(element)
    case .finished: .success(nil)
    case .failed(let error): .failure(error)
    }
  }
}

/// Owns an iteration: releasing the iterator (breaking out of a `for await` loop) ends the
/// sequence and cancels its upstream task and timer.
final class TimedOperatorIteration<
  Base: AsyncSequence & Sendable, S: Scheduler & Sendable, Machine
>:
  Sendable
where
  Base.Element: Sendable, Machine: TimedOperatorMachine, Machine.Input == Base.Element,
  Machine.UpstreamFailure == Base.Failure, Machine.Time == S.SchedulerTimeType,
  S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable
{
  let storage: TimedOperatorStorage<Base, S, Machine>

  init(base: Base, scheduler: S, machine: Machine) {
    storage = TimedOperatorStorage(base: base, scheduler: scheduler, machine: machine)
  }

  deinit { storage.cancel() }

  func next() async throws(Machine.Failure) -> Machine.Element? {
    try await storage.next().get()
  }
}

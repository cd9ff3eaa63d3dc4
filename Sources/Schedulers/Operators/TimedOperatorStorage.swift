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
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@usableFromInline
final class TimedOperatorStorage<Base: AsyncSequence & Sendable, S: Scheduler & Sendable, Machine>:
  Sendable
where
  Base.Element: Sendable, Machine: TimedOperatorMachine, Machine.Input == Base.Element,
  Machine.UpstreamFailure == Base.Failure, Machine.Time == S.SchedulerTimeType,
  S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable
{
  @usableFromInline typealias Element = Machine.Element
  @usableFromInline typealias Failure = Machine.Failure
  @usableFromInline typealias Output = TimedOperatorOutput<Element, Failure>
  @usableFromInline typealias Effects = TimedOperatorEffects<Element, Failure, S.SchedulerTimeType>
  @usableFromInline typealias Downstream = CheckedContinuation<Result<Element?, Failure>, Never>

  @usableFromInline
  enum Phase {
    case idle
    case running(upstream: Task<Void, Never>?)
    /// Nothing more will be produced; buffered outputs may remain.
    case ended
  }

  @usableFromInline
  struct State {
    @usableFromInline var machine: Machine
    @usableFromInline var phase = Phase.idle
    @usableFromInline var outputs: [Output] = []
    @usableFromInline var outputsHead = 0
    @usableFromInline var downstream: Downstream?
    @usableFromInline var timer = OperatorTimer<S.SchedulerTimeType>()

    @inlinable init(machine: Machine) { self.machine = machine }
  }

  /// What to do once the lock is released.
  @usableFromInline
  struct Work {
    @usableFromInline var resume: (Downstream, Result<Element?, Failure>)?
    @usableFromInline var cancelTimer: (any Cancellable)?
    @usableFromInline var startTimer: OperatorTimer<S.SchedulerTimeType>.Start?
    @usableFromInline var cancelUpstream: Task<Void, Never>?

    @inlinable init() {}
  }

  @usableFromInline let base: Base
  @usableFromInline let scheduler: S
  @usableFromInline let state: Mutex<State>

  @inlinable
  init(base: Base, scheduler: S, machine: Machine) {
    self.base = base
    self.scheduler = scheduler
    self.state = Mutex(State(machine: machine))
  }

  // MARK: The consumer

  /// The next output: an element, `nil` at the end, or the failure.
  @inlinable
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
  @inlinable
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

  @inlinable
  func launchUpstream() {
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

  @inlinable
  static func pull(_ iterator: inout Base.AsyncIterator) async -> Result<
    Base.Element?, Base.Failure
  > {
    do {
      return .success(try await iterator.next(isolation: nil))
    } catch {
      return .failure(error)
    }
  }

  // MARK: The timer

  @inlinable
  func timerFired(id: UInt64) {
    _ = handleEvent { state, now in
      guard state.timer.fire(id) else { return nil }
      return state.machine.timerFired(at: now)
    }
  }

  // MARK: Events

  /// Feeds one event to the machine, unless the sequence has ended. Returns whether the
  /// sequence goes on.
  @inlinable
  func handle(_ event: (inout Machine, S.SchedulerTimeType) -> Effects) -> Bool {
    handleEvent { state, now in event(&state.machine, now) }
  }

  /// Feeds one event, which may look at the whole state first and decline (return `nil`).
  @inlinable
  func handleEvent(
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
  @inlinable
  static func apply(_ effects: Effects, to state: inout State, work: inout Work) {
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

  @inlinable
  func perform(_ work: Work) {
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

  @inlinable
  static func popOutput(_ state: inout State) -> Output? {
    guard state.outputsHead < state.outputs.count else { return nil }
    let output = state.outputs[state.outputsHead]
    state.outputsHead += 1
    if state.outputsHead == state.outputs.count {
      state.outputs.removeAll(keepingCapacity: true)
      state.outputsHead = 0
    }
    return output
  }

  @inlinable
  static func result(of output: Output) -> Result<Element?, Failure> {
    switch output {
    case .element(let element): .success(element)
    case .finished: .success(nil)
    case .failed(let error): .failure(error)
    }
  }
}

/// Owns an iteration: releasing the iterator (breaking out of a `for await` loop) ends the
/// sequence and cancels its upstream task and timer.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@usableFromInline
final class TimedOperatorIteration<
  Base: AsyncSequence & Sendable, S: Scheduler & Sendable, Machine
>:
  Sendable
where
  Base.Element: Sendable, Machine: TimedOperatorMachine, Machine.Input == Base.Element,
  Machine.UpstreamFailure == Base.Failure, Machine.Time == S.SchedulerTimeType,
  S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable
{
  @usableFromInline let storage: TimedOperatorStorage<Base, S, Machine>

  @inlinable
  init(base: Base, scheduler: S, machine: Machine) {
    storage = TimedOperatorStorage(base: base, scheduler: scheduler, machine: machine)
  }

  @inlinable
  deinit { storage.cancel() }

  @inlinable
  func next() async throws(Machine.Failure) -> Machine.Element? {
    try await storage.next().get()
  }
}

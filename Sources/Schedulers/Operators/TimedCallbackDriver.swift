import Synchronization

/// Drives a time-based operator's state machine with callbacks instead of a sequence: the
/// engine of ``Debouncer`` and ``Throttler``, so that they follow exactly the timing rules of
/// `debounce` and `throttle` (one machine each, shared with the sequences).
///
/// Each call is an upstream element whose value is the action; each element the machine
/// outputs is an action to run. Decisions are made under the lock; the scheduler is called,
/// and actions are run, after it is released (an immediate scheduler runs a timer inside
/// `scheduleCancellable`, and an action may call the operator again).
@usableFromInline
final class TimedCallbackDriver<S: Scheduler & Sendable, Machine: CallbackOperatorMachine>:
  Sendable
where
  Machine.Input == TimedCallbackAction, Machine.Element == TimedCallbackAction,
  Machine.UpstreamFailure == Never, Machine.Failure == Never, Machine.Time == S.SchedulerTimeType,
  S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable
{
  @usableFromInline
  struct State {
    @usableFromInline var machine: Machine
    @usableFromInline var timer = OperatorTimer<S.SchedulerTimeType>()

    @inlinable init(machine: Machine) { self.machine = machine }
  }

  /// What to do once the lock is released.
  @usableFromInline
  struct Work {
    @usableFromInline var run: [TimedCallbackAction] = []
    @usableFromInline var cancelTimer: (any Cancellable)?
    @usableFromInline var startTimer: OperatorTimer<S.SchedulerTimeType>.Start?

    @inlinable init() {}
  }

  @usableFromInline let scheduler: S
  @usableFromInline let initialMachine: Machine
  @usableFromInline let state: Mutex<State>

  @usableFromInline
  init(scheduler: S, machine: Machine) {
    self.scheduler = scheduler
    initialMachine = machine
    state = Mutex(State(machine: machine))
  }

  /// Feeds an action to the machine, as an upstream element arriving now.
  @inlinable
  func call(_ action: @escaping TimedCallbackAction) {
    let now = scheduler.now
    let work = state.withLock { state in
      Self.apply(state.machine.received(action, at: now), to: &state)
    }
    perform(work)
  }

  /// Whether an action waits for the timer.
  var hasWaitingAction: Bool { state.withLock { $0.machine.holdsElement } }

  /// Drops the waiting action and its timer, and forgets everything the machine remembered.
  func cancel() {
    let timer = state.withLock { state in
      state.machine = initialMachine
      return state.timer.clear()
    }
    timer?.cancel()
  }

  /// Runs the waiting action now, if there is one, instead of when its timer fires.
  func flush() {
    let now = scheduler.now
    let (timer, work) = state.withLock { state -> (SendableCancellable?, Work) in
      guard state.machine.holdsElement else { return (nil, Work()) }
      let timer = state.timer.clear()
      return (timer, Self.apply(state.machine.flushed(at: now), to: &state))
    }
    timer?.cancel()
    perform(work)
  }

  @inlinable
  func timerFired(id: UInt64) {
    let now = scheduler.now
    let work = state.withLock { state -> Work in
      guard state.timer.fire(id) else { return Work() }
      return Self.apply(state.machine.timerFired(at: now), to: &state)
    }
    perform(work)
  }

  @inlinable
  static func apply(
    _ effects: TimedOperatorEffects<TimedCallbackAction, Never, S.SchedulerTimeType>,
    to state: inout State
  ) -> Work {
    var work = Work()
    (work.cancelTimer, work.startTimer) = state.timer.apply(effects.timer)
    for case .element(let action) in effects.outputs { work.run.append(action) }
    return work
  }

  @inlinable
  func perform(_ work: Work) {
    work.cancelTimer?.cancel()
    if let start = work.startTimer {
      scheduler.startOperatorTimer(start) { [weak self] id in
        self?.timerFired(id: id)
      } attach: { id, cancellable in
        state.withLock { $0.timer.attach(cancellable, to: id) }
      }
    }
    for action in work.run { action() }
  }
}

/// The actions that ``Debouncer`` and ``Throttler`` pass through their machines.
@usableFromInline
typealias TimedCallbackAction = @Sendable () -> Void

// The shared shape of the time-based `AsyncSequence` operators.
//
// Each operator is a small, synchronous state machine (`TimedOperatorMachine`) that reacts to
// four events: an upstream element, the upstream's finish or failure, and its own timer. It
// answers with the outputs to deliver and how to change its one timer. Everything that involves
// tasks, locks, continuations and the scheduler lives once, in `TimedOperatorStorage`. That
// split keeps each operator's semantics readable in a few lines, and testable as a table.

/// What a time-based operator delivers downstream.
@usableFromInline
enum TimedOperatorOutput<Element: Sendable, Failure: Error>: Sendable {
  case element(Element)
  case finished
  case failed(Failure)

  /// Whether the output ends the sequence.
  @inlinable var isTerminal: Bool {
    if case .element = self { return false }
    return true
  }
}

/// How an operator wants its single timer changed.
@usableFromInline
enum TimerChange<Time: Sendable>: Sendable {
  /// Leave the timer as it is (running or not).
  case keep
  /// Stop the timer, if it runs.
  case cancel
  /// Replace the timer with one firing at this instant.
  case set(Time)
}

/// The answer of an operator's state machine to one event.
@usableFromInline
struct TimedOperatorEffects<Element: Sendable, Failure: Error, Time: Sendable>: Sendable {
  @usableFromInline var outputs: [TimedOperatorOutput<Element, Failure>]
  @usableFromInline var timer: TimerChange<Time>

  @inlinable
  init(outputs: [TimedOperatorOutput<Element, Failure>] = [], timer: TimerChange<Time> = .keep) {
    self.outputs = outputs
    self.timer = timer
  }
}

/// The semantics of a time-based operator, free of concurrency.
///
/// The storage calls these methods one at a time, with the scheduler's `now`, and never after
/// the machine has output a finish or a failure. `timerFired` comes only for the timer last
/// set, and means its instant has come: machines trust it rather than comparing with `now`,
/// because an immediate scheduler runs timers without moving its clock.
@usableFromInline
protocol TimedOperatorMachine: Sendable {
  associatedtype Input: Sendable
  associatedtype UpstreamFailure: Error
  associatedtype Element: Sendable
  associatedtype Failure: Error
  associatedtype Time: Strideable & Sendable where Time.Stride: Sendable

  /// The consumer asked for the first element.
  mutating func started(at now: Time) -> TimedOperatorEffects<Element, Failure, Time>
  mutating func received(_ input: Input, at now: Time)
    -> TimedOperatorEffects<Element, Failure, Time>
  mutating func upstreamFinished(at now: Time) -> TimedOperatorEffects<Element, Failure, Time>
  mutating func upstreamFailed(_ error: UpstreamFailure, at now: Time)
    -> TimedOperatorEffects<Element, Failure, Time>
  mutating func timerFired(at now: Time) -> TimedOperatorEffects<Element, Failure, Time>
  /// The waiting element is to go out now, before its timer (a callback operator's `flush()`);
  /// the timer has already been stopped.
  mutating func flushed(at now: Time) -> TimedOperatorEffects<Element, Failure, Time>
}

extension TimedOperatorMachine {
  /// By default, as if the timer had fired now.
  @inlinable
  mutating func flushed(at now: Time) -> TimedOperatorEffects<Element, Failure, Time> {
    timerFired(at: now)
  }

  @inlinable
  mutating func started(at now: Time) -> TimedOperatorEffects<Element, Failure, Time> {
    TimedOperatorEffects()
  }
}

/// A machine that can also drive a callback operator (``Debouncer``, ``Throttler``), which
/// asks whether an element is held: its timer may run without one (a throttle window).
@usableFromInline
protocol CallbackOperatorMachine: TimedOperatorMachine {
  /// Whether an element waits for the timer.
  var holdsElement: Bool { get }
}

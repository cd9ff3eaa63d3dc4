import Schedulers
import Synchronization

/// The input sequence of a marble test: it yields the input timeline's elements at their
/// frames, finishes at `|` and throws ``MarbleFailure`` at `#`.
///
/// ```swift
/// try await expectMarbles(input: "a-b|", expected: "a-b|", frame: .seconds(1)) {
///   input, _ in input  // a MarbleInput<String>
/// }
/// ```
///
/// The input is *hot*, as RxJS's `hot()`: its events happen at their frames whether or not
/// something iterates it. An iteration (a subscription) receives the events from the instant
/// it starts, those of that same instant included, and buffers them until they are asked for.
/// Each iteration is logged, `^` when it starts and `!` when it ends (the input finished or
/// failed, or the iteration was cancelled or its iterator released), for `subscriptions:`.
public struct MarbleInput<Value: Sendable>: AsyncSequence, Sendable {
  public typealias Element = Value
  public typealias Failure = any Error

  let source: MarbleSource<Value>

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: source.subscribe().makeAsyncIterator())
  }

  /// The iterator of one subscription to a marble input.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<Value, any Error>.Iterator

    public mutating func next() async throws -> Value? {
      try await base.next()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Value? {
      try await base.next(isolation: actor)
    }
  }
}

/// What a subscription log records.
enum MarbleSubscriptionEvent: Sendable, Equatable {
  /// An iteration started (`^`).
  case subscribed
  /// An iteration ended (`!`).
  case ended

  var symbol: Character { self == .subscribed ? "^" : "!" }
}

/// One input timeline as it plays: the subscribers' streams, and the log of subscriptions with
/// the instant of each (read from `clock`, the offset from the start of the test).
final class MarbleSource<Value: Sendable>: Sendable {
  typealias Continuation = AsyncThrowingStream<Value, any Error>.Continuation

  private struct State {
    /// In the order they subscribed, so that they hear each event in that order.
    var subscribers: [(id: Int, continuation: Continuation)] = []
    var nextID = 0
    /// The events of the latest instant that had events, for a subscriber joining in it.
    var instantEvents: [MarbleEvent<Value>] = []
    var instantIndex = -1
    /// The finish or failure, once played: a later subscriber gets it at once (as a late
    /// subscriber to RxJS's completed hot observable does).
    var terminal: MarbleEvent<Value>?
    var log: [(instant: Int, event: MarbleSubscriptionEvent)] = []
    var logging = true
  }

  private let state = Mutex(State())
  /// Held while events are handed to subscribers, so that a new subscriber's replay and the
  /// next event cannot cross. (Not `state`'s lock: a finish calls `onTermination`, which logs.)
  private let delivery = Mutex(())
  /// An index for the scheduler's current instant: equal instants give equal indexes, later
  /// instants greater ones. The log keeps these, and the plan turns them into offsets.
  private let currentInstant: @Sendable () -> Int

  init(currentInstant: @escaping @Sendable () -> Int) {
    self.currentInstant = currentInstant
  }

  /// Delivers an event to every subscriber, now.
  func emit(_ event: MarbleEvent<Value>) {
    let instant = currentInstant()
    delivery.withLock { _ in deliver(event, at: instant) }
  }

  private func deliver(_ event: MarbleEvent<Value>, at instant: Int) {
    let subscribers = state.withLock { state -> [Continuation] in
      if state.instantIndex != instant {
        state.instantIndex = instant
        state.instantEvents.removeAll()
      }
      state.instantEvents.append(event)
      if event.isTerminal { state.terminal = event }
      return state.subscribers.map(\.continuation)
    }
    for continuation in subscribers { Self.send(event, to: continuation) }
  }

  /// Starts a subscription: a stream of the events from now on (those of this instant
  /// included), logged.
  func subscribe() -> AsyncThrowingStream<Value, any Error> {
    let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream()
    let instant = currentInstant()
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      if state.logging { state.log.append((instant, .subscribed)) }
      return state.nextID
    }
    continuation.onTermination = { [weak self] _ in self?.ended(id) }
    delivery.withLock { _ in
      let replay = state.withLock { state -> [MarbleEvent<Value>] in
        let sameInstant = state.instantIndex == instant
        if state.terminal == nil || sameInstant { state.subscribers.append((id, continuation)) }
        if sameInstant { return state.instantEvents }
        return state.terminal.map { [$0] } ?? []
      }
      for event in replay { Self.send(event, to: continuation) }
    }
    return stream
  }

  private func ended(_ id: Int) {
    let instant = currentInstant()
    state.withLock { state in
      state.subscribers.removeAll { $0.id == id }
      if state.logging { state.log.append((instant, .ended)) }
    }
  }

  /// Stops logging (the end of the test: what the test's own clean-up does is not part of the
  /// timeline), and ends every subscription.
  func close() {
    let subscribers = state.withLock { state -> [Continuation] in
      state.logging = false
      defer { state.subscribers.removeAll() }
      return state.subscribers.map(\.continuation)
    }
    for continuation in subscribers { continuation.finish() }
  }

  var log: [(instant: Int, event: MarbleSubscriptionEvent)] { state.withLock { $0.log } }

  private static func send(_ event: MarbleEvent<Value>, to continuation: Continuation) {
    switch event {
    case .value(let value): continuation.yield(value)
    case .finished: continuation.finish()
    case .failed(let error): continuation.finish(throwing: error)
    }
  }
}

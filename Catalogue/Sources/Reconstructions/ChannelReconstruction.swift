import Synchronization

// swift-async-algorithms' first `AsyncChannel` (0.0.1), reduced to what two of its bugs need:
// a lock around a state of idle, pending sends, or a set of awaiting `next()` calls keyed by
// the iterator's generation, and a cancellation handler around each `next()`.
//
// - apple/swift-async-algorithms PR 80 (commit de73225, fixed before 0.0.1 was tagged): a
//   `next()` whose task is already cancelled runs its cancellation handler first, while the
//   channel is idle, and the handler found nothing to cancel; `next()` then registered and
//   waited for a value nobody would send. The fix leaves a cancelled placeholder that the
//   `next()` finds and returns `nil` for. Symptom: the iterating task hangs.
// - apple/swift-async-algorithms issue 142 (fixed by apple/swift-async-algorithms PR 143,
//   released in 0.0.2): cancelling an iteration that waits removed it from the awaiting set but
//   left the state `.awaiting` with an empty set; the next `send` took `removeFirst()` of that
//   empty set. Symptom: a crash ("Can't removeFirst from an empty collection"). The fix goes back
//   to `.idle` when the set empties.

/// The upstream bugs a ``ModelChannel`` may carry.
public struct ChannelBugs: OptionSet, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// apple/swift-async-algorithms PR 80's: a cancellation that comes before its `next()` registers
  /// is forgotten.
  public static let cancelBeforeNextIsForgotten = ChannelBugs(rawValue: 1)
  /// apple/swift-async-algorithms issue 142's: a cancelled `next()` leaves an empty awaiting set
  /// behind.
  public static let cancelLeavesAnEmptyAwaitingSet = ChannelBugs(rawValue: 2)
}

/// A channel of `Int`s with the 0.0.1 design, and the bugs it is given.
public final class ModelChannel: Sendable {
  struct Awaiting: Hashable {
    var generation: Int
    /// `nil`: a placeholder for a cancellation that came before its `next()`.
    var continuation: CheckedContinuation<Int?, Never>?
    static func == (lhs: Awaiting, rhs: Awaiting) -> Bool { lhs.generation == rhs.generation }
    func hash(into hasher: inout Hasher) { hasher.combine(generation) }
  }
  struct Send {
    var element: Int
    var continuation: CheckedContinuation<Void, Never>
  }
  enum Emission {
    case idle
    case pending([Send])
    case awaiting(Set<Awaiting>)
  }
  struct State {
    var emission = Emission.idle
    var generation = 0
    var finished = false
  }

  private let state = Mutex(State())
  private let bugs: ChannelBugs

  public init(bugs: ChannelBugs) { self.bugs = bugs }

  /// A new iteration's generation (what `makeAsyncIterator()` established).
  public func establish() -> Int {
    state.withLock { state in
      state.generation += 1
      return state.generation
    }
  }

  /// The next element for the iteration `generation`, or `nil` once finished or cancelled.
  public func next(_ generation: Int) async -> Int? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
        let resumption = state.withLock { state -> (() -> Void)? in
          if state.finished { return { continuation.resume(returning: nil) } }
          switch state.emission {
          case .idle:
            state.emission = .awaiting([
              Awaiting(generation: generation, continuation: continuation)
            ])
            return nil
          case .pending(var sends):
            let send = sends.removeFirst()
            state.emission = sends.isEmpty ? .idle : .pending(sends)
            return {
              continuation.resume(returning: send.element)
              send.continuation.resume()
            }
          case .awaiting(var nexts):
            let mine = Awaiting(generation: generation, continuation: continuation)
            if nexts.remove(mine) != nil {
              // A placeholder: this iteration was cancelled before it got here.
              state.emission = nexts.isEmpty ? .idle : .awaiting(nexts)
              return { continuation.resume(returning: nil) }
            }
            nexts.insert(mine)
            state.emission = .awaiting(nexts)
            return nil
          }
        }
        resumption?()
      }
    } onCancel: {
      cancel(generation)
    }
  }

  private func cancel(_ generation: Int) {
    let bugs = self.bugs
    let cancelled = state.withLock { state -> CheckedContinuation<Int?, Never>? in
      let placeholder = Awaiting(generation: generation, continuation: nil)
      switch state.emission {
      case .awaiting(var nexts):
        if let removed = nexts.remove(placeholder) {
          if bugs.contains(.cancelLeavesAnEmptyAwaitingSet) {
            state.emission = .awaiting(nexts)
          } else {
            state.emission = nexts.isEmpty ? .idle : .awaiting(nexts)
          }
          return removed.continuation
        }
        if !bugs.contains(.cancelBeforeNextIsForgotten) {
          nexts.insert(placeholder)
          state.emission = .awaiting(nexts)
        }
        return nil
      case .idle:
        if !bugs.contains(.cancelBeforeNextIsForgotten) {
          state.emission = .awaiting([placeholder])
        }
        return nil
      case .pending:
        return nil
      }
    }
    cancelled?.resume(returning: nil)
  }

  /// Hands `element` to an awaiting iteration, or waits for one.
  public func send(_ element: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumption = state.withLock { state -> (() -> Void)? in
        if state.finished { return { continuation.resume() } }
        switch state.emission {
        case .idle:
          state.emission = .pending([Send(element: element, continuation: continuation)])
          return nil
        case .pending(var sends):
          sends.append(Send(element: element, continuation: continuation))
          state.emission = .pending(sends)
          return nil
        case .awaiting(var nexts):
          // apple/swift-async-algorithms issue 142: with an empty set left behind by a
          // cancellation, this traps.
          let next = nexts.removeFirst()
          state.emission = nexts.isEmpty ? .idle : .awaiting(nexts)
          return {
            next.continuation?.resume(returning: element)
            continuation.resume()
          }
        }
      }
      resumption?()
    }
  }

  /// Ends every iteration and every waiting send.
  public func finish() {
    let (sends, nexts) = state.withLock { state -> ([Send], Set<Awaiting>) in
      state.finished = true
      defer { state.emission = .idle }
      switch state.emission {
      case .idle: return ([], [])
      case .pending(let sends): return (sends, [])
      case .awaiting(let nexts): return ([], nexts)
      }
    }
    for send in sends { send.continuation.resume() }
    for next in nexts { next.continuation?.resume(returning: nil) }
  }
}

/// apple/swift-async-algorithms issue 142's program: an iteration waits, its task is cancelled,
/// then a value is sent. First in, first out, the value is sent before the cancel; only another
/// order crashes.
public func cancelAWaitingIterationThenSend(_ version: Version) async -> Int? {
  let channel = ModelChannel(
    bugs: version == .buggy ? [.cancelLeavesAnEmptyAwaitingSet] : [])
  let generation = channel.establish()
  let iteration = Task { await channel.next(generation) }
  let sender = Task { await channel.send(1) }
  let canceller = Task {
    for _ in 0..<3 { await Task.yield() }
    iteration.cancel()
  }
  let received = await iteration.value
  await canceller.value
  channel.finish()  // a send nobody took returns
  await sender.value
  return received
}

/// apple/swift-async-algorithms PR 80's program: an iteration's task cancelled, soon after it
/// starts or before.
public func cancelAnIterationAsItStarts(_ version: Version) async -> Int? {
  let channel = ModelChannel(bugs: version == .buggy ? [.cancelBeforeNextIsForgotten] : [])
  let generation = channel.establish()
  let iteration = Task { await channel.next(generation) }
  let canceller = Task { iteration.cancel() }
  await canceller.value
  return await iteration.value
}

import Schedulers
import Synchronization

/// The instants of a marble test, as small integers: equal instants get equal indexes, later
/// ones greater. What the subscription logs keep (they do not know the scheduler's stride
/// type); the plan turns indexes back into offsets.
final class MarbleInstants<Stride: Sendable & Equatable>: Sendable {
  private let offsets = Mutex<[Stride]>([])
  private let offsetNow: @Sendable () -> Stride

  init(offsetNow: @escaping @Sendable () -> Stride) { self.offsetNow = offsetNow }

  /// The index of the current instant. Time never goes back, so comparing with the last one
  /// seen is enough.
  func current() -> Int {
    let now = offsetNow()
    return offsets.withLock { offsets in
      if offsets.last != now { offsets.append(now) }
      return offsets.count - 1
    }
  }

  func offset(at index: Int) -> Stride { offsets.withLock { $0[index] } }
}

/// The events an operator produced, each with its offset from the start of the test.
final class MarbleRecording<Value: Sendable, Stride: Sendable>: Sendable {
  private struct State {
    var events: [(offset: Stride, event: MarbleEvent<Value>)] = []
    var stopped = false
  }
  private let offsetNow: @Sendable () -> Stride
  private let state = Mutex(State())

  init(offsetNow: @escaping @Sendable () -> Stride) { self.offsetNow = offsetNow }

  /// Records an event at the scheduler's current instant, until the test stops recording (the
  /// cancellation that ends the test is not part of the timeline).
  func record(_ event: MarbleEvent<Value>) {
    let offset = offsetNow()
    state.withLock { state in
      if !state.stopped { state.events.append((offset, event)) }
    }
  }

  /// Whether nothing more will be recorded: the output ended, or recording stopped (the
  /// consumer was cancelled).
  var isDone: Bool {
    state.withLock { $0.stopped || ($0.events.last?.event.isTerminal ?? false) }
  }

  func stop() { state.withLock { $0.stopped = true } }

  var events: [(offset: Stride, event: MarbleEvent<Value>)] { state.withLock { $0.events } }
}

extension MarbleTimeline where Value == String {
  /// Every element character of `marbles`, standing for itself.
  static func characterValues(of marbles: String) -> [Character: String] {
    var values: [Character: String] = [:]
    for character in marbles where !"-()|#".contains(character) {
      values[character] = String(character)
    }
    return values
  }

  /// Every element character of all of `marbles`, standing for itself.
  static func characterValues(of marbles: [String]) -> [Character: String] {
    var values: [Character: String] = [:]
    for string in marbles {
      values.merge(characterValues(of: string)) { first, _ in first }
    }
    return values
  }
}

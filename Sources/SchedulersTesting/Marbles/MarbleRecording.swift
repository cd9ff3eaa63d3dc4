import Dispatch
import Schedulers
import Synchronization

/// The events an operator produced, each with its offset from the start of the test.
final class MarbleRecording<Value: Sendable>: Sendable {
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride
  private struct State {
    var events: [(offset: Stride, event: MarbleEvent<Value>)] = []
    var stopped = false
  }
  private let scheduler: TestSchedulerOf<DispatchQueue>
  private let start: DispatchQueue.SchedulerTimeType
  private let state = Mutex(State())

  init(scheduler: TestSchedulerOf<DispatchQueue>) {
    self.scheduler = scheduler
    self.start = scheduler.now
  }

  /// Records an event at the scheduler's current instant, until the test stops recording (the
  /// cancellation that ends the test is not part of the timeline).
  func record(_ event: MarbleEvent<Value>) {
    let offset = start.distance(to: scheduler.now)
    state.withLock { state in
      if !state.stopped { state.events.append((offset, event)) }
    }
  }

  var hasEnded: Bool { state.withLock { $0.events.last?.event.isTerminal ?? false } }

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
}

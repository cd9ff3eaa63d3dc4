import Synchronization

/// The least a thread-safe virtual-time queue can do: a binary min-heap of closures keyed by
/// (deadline, sequence) behind a mutex, popping and running each due closure outside the lock.
/// No cancellation, no repeating work, no clock, no checks: a lower bound to compare against.
final class ReferenceHeap: Sendable {
  private struct Entry {
    var deadline: Int
    var sequence: Int
    var action: @Sendable () -> Void

    func runsBefore(_ other: Entry) -> Bool {
      deadline < other.deadline || (deadline == other.deadline && sequence < other.sequence)
    }
  }

  private struct State {
    var entries: [Entry] = []
    var sequence = 0
  }

  private let state = Mutex(State())

  func insert(deadline: Int, _ action: @escaping @Sendable () -> Void) {
    state.withLock { state in
      state.entries.append(Entry(deadline: deadline, sequence: state.sequence, action: action))
      state.sequence += 1
      var child = state.entries.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard state.entries[child].runsBefore(state.entries[parent]) else { break }
        state.entries.swapAt(child, parent)
        child = parent
      }
    }
  }

  func drain(through limit: Int) {
    while let action = popFirst(dueBy: limit) { action() }
  }

  private func popFirst(dueBy limit: Int) -> (@Sendable () -> Void)? {
    state.withLock { state -> (@Sendable () -> Void)? in
      guard let first = state.entries.first, first.deadline <= limit else { return nil }
      let last = state.entries.removeLast()
      if state.entries.isEmpty { return first.action }
      state.entries[0] = last
      var parent = 0
      let count = state.entries.count
      while true {
        let left = 2 * parent + 1
        guard left < count else { break }
        let right = left + 1
        let child =
          right < count && state.entries[right].runsBefore(state.entries[left]) ? right : left
        guard state.entries[child].runsBefore(state.entries[parent]) else { break }
        state.entries.swapAt(child, parent)
        parent = child
      }
      return first.action
    }
  }
}

/// The pending work of a ``TestScheduler``: a binary min-heap ordered by deadline, then by the
/// order of scheduling, so that actions due at the same instant run first-in, first-out.
///
/// Entries that can be cancelled carry a ``ScheduleQueueHandle`` that always knows the entry's
/// index in the heap, so cancellation removes the entry in O(log n) without searching, and
/// releases its closure at once. One-shot actions that nobody can cancel carry no handle and
/// cost no allocation beyond their closure.
///
/// Not thread-safe by itself: the owning scheduler keeps it inside its mutex.
@usableFromInline
struct ScheduleQueue<Time: Strideable> {
  @usableFromInline
  struct Entry {
    @usableFromInline var deadline: Time
    @usableFromInline var sequence: UInt64
    @usableFromInline var action: @Sendable () -> Void
    @usableFromInline var handle: ScheduleQueueHandle<Time>?

    @inlinable
    init(
      deadline: Time, sequence: UInt64, action: @escaping @Sendable () -> Void,
      handle: ScheduleQueueHandle<Time>?
    ) {
      self.deadline = deadline
      self.sequence = sequence
      self.action = action
      self.handle = handle
    }

    @inlinable
    func runsBefore(_ other: Entry) -> Bool {
      deadline < other.deadline || (deadline == other.deadline && sequence < other.sequence)
    }
  }

  @usableFromInline var entries: ContiguousArray<Entry> = []

  @inlinable init() {}

  @inlinable var count: Int { entries.count }
  @inlinable var isEmpty: Bool { entries.isEmpty }

  /// The entry that runs next.
  ///
  /// - Complexity: O(1)
  @inlinable var first: Entry? { entries.first }

  /// Adds an entry.
  ///
  /// - Complexity: O(log n)
  @inlinable
  mutating func insert(_ entry: Entry) {
    entries.append(entry)
    siftUp(from: entries.count - 1)
  }

  /// Removes and returns the entry that runs next.
  ///
  /// - Complexity: O(log n)
  @inlinable
  mutating func removeFirst() -> Entry {
    remove(at: 0)
  }

  /// Removes the entry at `index` (an index a handle reported).
  ///
  /// - Complexity: O(log n)
  @inlinable
  mutating func remove(at index: Int) -> Entry {
    let last = entries.count - 1
    if index != last {
      entries.swapAt(index, last)
    }
    let removed = entries.removeLast()
    removed.handle?.index = ScheduleQueueHandle<Time>.notQueued
    if index < entries.count {
      // The entry moved into the hole may belong above or below it.
      if index > 0 && entries[index].runsBefore(entries[(index - 1) / 2]) {
        siftUp(from: index)
      } else {
        siftDown(from: index)
      }
    }
    return removed
  }

  /// Replaces the entry that runs next with `entry`, as a repeating action does when it
  /// reschedules itself: one sift instead of a removal and an insertion.
  ///
  /// - Complexity: O(log n)
  @inlinable
  mutating func replaceFirst(with entry: Entry) {
    entries[0] = entry
    siftDown(from: 0)
  }

  @inlinable
  mutating func siftUp(from start: Int) {
    var child = start
    let moving = entries[child]
    while child > 0 {
      let parent = (child - 1) / 2
      guard moving.runsBefore(entries[parent]) else { break }
      entries[child] = entries[parent]
      entries[child].handle?.index = child
      child = parent
    }
    entries[child] = moving
    moving.handle?.index = child
  }

  @inlinable
  mutating func siftDown(from start: Int) {
    let count = entries.count
    var parent = start
    let moving = entries[parent]
    while true {
      let left = 2 * parent + 1
      guard left < count else { break }
      let right = left + 1
      let child = right < count && entries[right].runsBefore(entries[left]) ? right : left
      guard entries[child].runsBefore(moving) else { break }
      entries[parent] = entries[child]
      entries[parent].handle?.index = parent
      parent = child
    }
    entries[parent] = moving
    moving.handle?.index = parent
  }

  /// The entries in the order they would run.
  ///
  /// - Complexity: O(n log n)
  @usableFromInline
  func sortedEntries() -> [Entry] {
    entries.sorted { $0.runsBefore($1) }
  }
}

/// The identity of a queued entry that can be cancelled: a repeating action or, later, a
/// sleeper. Its index is read and written only while the owning scheduler's mutex is held,
/// which is why the class can be `@unchecked Sendable`.
@usableFromInline
final class ScheduleQueueHandle<Time: Strideable>: @unchecked Sendable {
  @usableFromInline static var notQueued: Int { -1 }

  /// The entry's index in the heap, or `notQueued`. Guarded by the owner's mutex.
  @usableFromInline var index: Int = notQueued
  /// The repeat interval, or `nil` for a one-shot entry.
  @usableFromInline let interval: Time.Stride?

  @inlinable
  init(interval: Time.Stride?) {
    self.interval = interval
  }
}

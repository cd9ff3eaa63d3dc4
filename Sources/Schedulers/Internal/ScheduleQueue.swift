/// The pending work of a ``TestScheduler``: a four-ary min-heap ordered by deadline, then by
/// the order of scheduling, so that actions due at the same instant run first-in, first-out.
///
/// Four children per node rather than two halve the heap's depth: at a million entries a
/// binary heap's sift touches 20 cache lines scattered over 40 MB, a four-ary one 10 (each
/// node's children share one or two lines), and those misses, not comparisons, are what a
/// large queue costs.
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
    checkInvariants()
  }

  /// Removes and returns the entry that runs next.
  ///
  /// - Complexity: O(log n)
  @inlinable
  mutating func removeFirst() -> Entry {
    let last = entries.removeLast()
    guard !entries.isEmpty else {
      last.handle?.index = ScheduleQueueHandle<Time>.notQueued
      return last
    }
    return replaceFirst(with: last)
  }

  /// Removes the entry at `index` (an index a handle reported).
  ///
  /// - Complexity: O(log n)
  @inlinable
  mutating func remove(at index: Int) -> Entry {
    let last = entries.removeLast()
    guard index < entries.count else {
      last.handle?.index = ScheduleQueueHandle<Time>.notQueued
      return last
    }
    let removed = entries[index]
    entries[index] = last
    removed.handle?.index = ScheduleQueueHandle<Time>.notQueued
    // The entry moved into the hole may belong above or below it.
    if index > 0 && last.runsBefore(entries[Self.parent(of: index)]) {
      siftUp(from: index)
    } else {
      siftDown(from: index)
    }
    checkInvariants()
    return removed
  }

  /// Replaces the entry that runs next with `entry` and returns the old one: one sift instead
  /// of a removal and an insertion, as when a repeating action reschedules itself.
  ///
  /// - Complexity: O(log n)
  @inlinable
  @discardableResult
  mutating func replaceFirst(with entry: Entry) -> Entry {
    let first = entries[0]
    entries[0] = entry
    siftDown(from: 0)
    if first.handle !== entry.handle {
      first.handle?.index = ScheduleQueueHandle<Time>.notQueued
    }
    checkInvariants()
    return first
  }

  // The sifts move entries through a hole in the buffer instead of copying them: a copy of an
  // entry retains its closure and handle, and a write through the array checks uniqueness,
  // which together cost more than the comparisons.

  /// The number of children of each node.
  @inlinable static var arity: Int { 4 }

  @inlinable static func parent(of index: Int) -> Int { (index - 1) / arity }

  @inlinable static func firstChild(of index: Int) -> Int { arity * index + 1 }

  @inlinable
  mutating func siftUp(from start: Int) {
    entries.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress!
      var hole = start
      let moving = (base + hole).move()
      while hole > 0 {
        let parent = Self.parent(of: hole)
        guard moving.runsBefore(base[parent]) else { break }
        (base + hole).moveInitialize(from: base + parent, count: 1)
        base[hole].handle?.index = hole
        hole = parent
      }
      (base + hole).initialize(to: moving)
      moving.handle?.index = hole
    }
  }

  @inlinable
  mutating func siftDown(from start: Int) {
    entries.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress!
      let count = buffer.count
      var hole = start
      let moving = (base + hole).move()
      while true {
        let first = Self.firstChild(of: hole)
        guard first < count else { break }
        var child = first
        var sibling = first + 1
        let end = min(first + Self.arity, count)
        while sibling < end {
          if base[sibling].runsBefore(base[child]) { child = sibling }
          sibling += 1
        }
        guard base[child].runsBefore(moving) else { break }
        (base + hole).moveInitialize(from: base + child, count: 1)
        base[hole].handle?.index = hole
        hole = child
      }
      (base + hole).initialize(to: moving)
      moving.handle?.index = hole
    }
  }

  /// Checks the heap's invariants, when the package is built with
  /// `-Xswiftc -DSCHEDULERS_INTERNAL_CHECKS` (as the differential fuzz run in CI is): every
  /// entry runs no earlier than its parent, and every handle knows its entry's index. Compiles
  /// to nothing otherwise, as swift-collections does with its internal checks.
  ///
  /// - Complexity: O(n) when checks are on; O(1) otherwise.
  @inlinable @inline(__always)
  func checkInvariants() {
    #if SCHEDULERS_INTERNAL_CHECKS
      for index in entries.indices {
        if let handle = entries[index].handle {
          precondition(
            handle.index == index,
            "ScheduleQueue: the handle of the entry at \(index) says \(handle.index)")
        }
        guard index > 0 else { continue }
        let parent = Self.parent(of: index)
        precondition(
          !entries[index].runsBefore(entries[parent]),
          "ScheduleQueue: the entry at \(index) runs before its parent at \(parent)")
      }
    #endif
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
  /// Where the work was scheduled, when the API could know it (sleeps, timers).
  let callSite: CallSite?
  /// What scheduled the work, when that says more than "an action" and no call site is known
  /// (a plain `Task.sleep` in a deterministic run).
  let label: String?

  @usableFromInline
  init(interval: Time.Stride?, callSite: CallSite? = nil, label: String? = nil) {
    self.interval = interval
    self.callSite = callSite
    self.label = label
  }
}

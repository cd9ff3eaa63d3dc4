/// The pending work of a ``TestScheduler``: a four-ary min-heap of small keys, ordered by
/// deadline and then by the order of scheduling (actions due at the same instant run
/// first-in, first-out), over a slab of payloads (each action and its handle).
///
/// ## Why keys apart from payloads
/// At a million entries a sift costs the cache lines it touches, not its comparisons. A key is
/// the deadline and one 64-bit tag (the order of scheduling in the high 32 bits, the payload's
/// slot in the low 32): 16 bytes for every time type a scheduler of this package uses, so a
/// node's four children share one or two cache lines, where entries that carried their closure
/// and handle (40 bytes) took three or four. And a payload never moves while it is queued, so
/// a sift no longer tells each moved entry's handle its new index (a write to another cache
/// line per level, for cancellable work).
///
/// ## Cancellation
/// Cancelling releases the action at once and leaves its key in the heap as a tombstone: O(1).
/// Tombstones that reach the top are dropped at once, so the first key is always live and
/// ``count`` counts live entries only. When tombstones outnumber live keys, the heap is rebuilt
/// without them (O(n), paid for by the cancellations that made them), so memory stays
/// proportional to the pending work however much is cancelled.
///
/// ## Order
/// The queue numbers insertions itself, first-in, first-out, with a 32-bit counter; a shuffled
/// scheduler passes random orders instead. Before the counter would wrap, every key is renumbered
/// by its rank (which keeps the heap valid: the order of the keys does not change), once per
/// four billion insertions.
///
/// Not thread-safe by itself: the owning scheduler keeps it inside its mutex.
@usableFromInline
struct ScheduleQueue<Time: Strideable> {
  /// A queued action as the scheduler sees it: when it is due, what it runs, and its handle.
  @usableFromInline
  struct Entry {
    @usableFromInline var deadline: Time
    @usableFromInline var action: @Sendable () -> Void
    @usableFromInline var handle: ScheduleQueueHandle<Time>?

    @inlinable
    init(
      deadline: Time, action: @escaping @Sendable () -> Void, handle: ScheduleQueueHandle<Time>?
    ) {
      self.deadline = deadline
      self.action = action
      self.handle = handle
    }
  }

  /// What the heap orders: the deadline, then the tag (order of scheduling, then slot).
  @usableFromInline
  struct Key {
    @usableFromInline var deadline: Time
    /// The order of scheduling in the high 32 bits, the payload's slot in the low 32 bits: one
    /// comparison orders by both, and the slot breaks the tie of two equal shuffled orders.
    @usableFromInline var tag: UInt64

    @inlinable
    init(deadline: Time, order: UInt32, slot: Int) {
      self.deadline = deadline
      tag = UInt64(order) &<< 32 | UInt64(UInt32(truncatingIfNeeded: slot))
    }

    @inlinable var order: UInt32 { UInt32(truncatingIfNeeded: tag &>> 32) }
    @inlinable var slot: Int { Int(UInt32(truncatingIfNeeded: tag)) }

    @inlinable
    func runsBefore(_ other: Key) -> Bool {
      deadline < other.deadline || (deadline == other.deadline && tag < other.tag)
    }
  }

  /// What a key's slot holds. Both fields are `nil` in a free slot and in a cancelled one whose
  /// key is still in the heap (the key tells them apart: only a tombstone has one).
  @usableFromInline
  struct Payload {
    @usableFromInline var action: (@Sendable () -> Void)?
    @usableFromInline var handle: ScheduleQueueHandle<Time>?

    @inlinable
    init(action: (@Sendable () -> Void)?, handle: ScheduleQueueHandle<Time>?) {
      self.action = action
      self.handle = handle
    }
  }

  /// The heap.
  @usableFromInline var keys: ContiguousArray<Key> = []
  /// Keys taken out of the heap in one sort, because most of a large queue was due: sorted so
  /// that the last runs first. Usually empty. See ``prepareToRun(through:)``.
  @usableFromInline var sortedDue: ContiguousArray<Key> = []
  @usableFromInline var payloads: ContiguousArray<Payload> = []
  /// Slots of `payloads` that no key refers to, reused last-in, first-out (the warmest first).
  @usableFromInline var freeSlots: ContiguousArray<UInt32> = []
  /// Keys (in the heap or in `sortedDue`) whose entry was cancelled.
  @usableFromInline var cancelledCount = 0
  /// The next first-in, first-out order.
  @usableFromInline var nextOrder: UInt32 = 0
  /// The order at which the queue renumbers its keys: `UInt32.max`, lower only in the queue's
  /// own tests, which cannot schedule four billion actions.
  @usableFromInline let orderLimit: UInt32
  /// The fewest keys for which ``prepareToRun(through:)`` sorts the due ones: 32,768 (half a
  /// megabyte of keys, what a core's cache holds), lower only in the queue's own tests.
  @usableFromInline let sortThreshold: Int

  /// Whether every change checks the invariants (``checkInvariants()``): set by the
  /// differential fuzz tests on their schedulers, so that the checks run in every build of the
  /// suite without slowing the other tests or needing a build of their own.
  @usableFromInline var checksInvariants = false

  @inlinable init() {
    orderLimit = .max
    sortThreshold = 1 << 15
  }

  /// A queue that renumbers its keys once `orderLimit` insertions have been numbered, and sorts
  /// due keys from `sortThreshold` keys on.
  init(orderLimit: UInt32 = .max, sortThreshold: Int = 1 << 15) {
    self.orderLimit = orderLimit
    self.sortThreshold = sortThreshold
  }

  /// The number of live (not cancelled) entries.
  @inlinable var count: Int { keys.count + sortedDue.count - cancelledCount }

  /// Whether no live entry is queued (the first key is always live).
  @inlinable var isEmpty: Bool { keys.isEmpty && sortedDue.isEmpty }

  /// Whether the entry that runs next is the last of `sortedDue` rather than the heap's top.
  @inlinable var firstIsSortedDue: Bool {
    guard let due = sortedDue.last else { return false }
    guard let top = keys.first else { return true }
    return due.runsBefore(top)
  }

  /// The key of the entry that runs next.
  @inlinable var firstKey: Key? { firstIsSortedDue ? sortedDue.last : keys.first }

  /// The deadline of the entry that runs next.
  ///
  /// - Complexity: O(1)
  @inlinable var firstDeadline: Time? { firstKey?.deadline }

  /// The handle of the entry that runs next, if it has one.
  ///
  /// - Complexity: O(1)
  @inlinable var firstHandle: ScheduleQueueHandle<Time>? {
    guard let key = firstKey else { return nil }
    return payloads[key.slot].handle
  }

  /// Adds an entry, due at `deadline`, after every entry due at the same instant (when `order`
  /// is `nil`) or at `order` among them (a shuffled scheduler's draw).
  ///
  /// - Complexity: O(log n); amortised O(1) for a random deadline.
  @inlinable @discardableResult
  mutating func insert(
    deadline: Time, action: @escaping @Sendable () -> Void, handle: ScheduleQueueHandle<Time>?,
    order: UInt32? = nil
  ) -> UInt32 {
    let order = order ?? takeOrder()
    let slot = takeSlot(for: Payload(action: action, handle: handle))
    handle?.slot = slot
    keys.append(Key(deadline: deadline, order: order, slot: slot))
    siftUp(from: keys.count - 1)
    checkInvariants()
    return order
  }

  /// Removes and returns the entry that runs next.
  ///
  /// - Precondition: the queue is not empty.
  /// - Complexity: O(log n)
  @inlinable
  mutating func removeFirst() -> Entry {
    let key = removeFirstKey()
    let payload = releaseSlot(key.slot)
    payload.handle?.slot = ScheduleQueueHandle<Time>.notQueued
    dropCancelledFirstKeys()
    startSlabAgainIfEmpty()
    checkInvariants()
    return Entry(deadline: key.deadline, action: payload.action!, handle: payload.handle)
  }

  /// Moves the entry that runs next to `deadline` (a repeating action's next occurrence), with
  /// the order it had (when `order` is `nil`) or `order`, and returns the entry as it was: one
  /// sift instead of a removal and an insertion, and the payload stays where it is.
  ///
  /// - Precondition: the queue is not empty.
  /// - Complexity: O(log n)
  @inlinable
  mutating func rescheduleFirst(at deadline: Time, order: UInt32? = nil) -> Entry {
    let key: Key
    if firstIsSortedDue {
      key = sortedDue.removeLast()
      keys.append(Key(deadline: deadline, order: order ?? key.order, slot: key.slot))
      siftUp(from: keys.count - 1)
    } else {
      key = keys[0]
      keys[0] = Key(deadline: deadline, order: order ?? key.order, slot: key.slot)
      siftDown(from: 0)
    }
    let payload = payloads[key.slot]
    dropCancelledFirstKeys()
    checkInvariants()
    return Entry(deadline: key.deadline, action: payload.action!, handle: payload.handle)
  }

  /// Cancels a handle's entry, if it is still queued, and returns its action for the caller to
  /// release outside any lock (its captures' deinit may schedule).
  ///
  /// - Complexity: amortised O(1) (O(log n) when the entry runs next).
  @inlinable
  mutating func cancel(_ handle: ScheduleQueueHandle<Time>) -> (@Sendable () -> Void)? {
    let slot = handle.slot
    guard slot != ScheduleQueueHandle<Time>.notQueued else { return nil }
    handle.slot = ScheduleQueueHandle<Time>.notQueued
    // The slot stays taken: its key, now a tombstone, still refers to it.
    let payload = releasePayload(at: slot)
    cancelledCount += 1
    dropCancelledFirstKeys()
    if cancelledCount >= 16 && cancelledCount > count { removeCancelledKeys() }
    startSlabAgainIfEmpty()
    checkInvariants()
    return payload.action
  }

  /// The entries in the order they would run.
  ///
  /// - Complexity: O(n log n)
  @usableFromInline
  func sortedEntries() -> [Entry] {
    (keys + sortedDue).filter { payloads[$0.slot].action != nil }
      .sorted { $0.runsBefore($1) }
      .map { key in
        let payload = payloads[key.slot]
        return Entry(deadline: key.deadline, action: payload.action!, handle: payload.handle)
      }
  }

  // MARK: Slots and orders

  @inlinable
  mutating func takeSlot(for payload: Payload) -> Int {
    if let slot = freeSlots.popLast() {
      payloads[Int(slot)] = payload
      return Int(slot)
    }
    precondition(
      payloads.count < Int(UInt32.max),
      "TestScheduler: more than \(UInt32.max) actions pending at once")
    payloads.append(payload)
    return payloads.count - 1
  }

  /// Empties a slot's payload and returns what it held; the slot stays taken.
  @inlinable
  mutating func releasePayload(at slot: Int) -> Payload {
    var payload = Payload(action: nil, handle: nil)
    swap(&payload, &payloads[slot])
    return payload
  }

  /// Empties a slot and makes it free.
  @inlinable
  mutating func releaseSlot(_ slot: Int) -> Payload {
    freeSlots.append(UInt32(truncatingIfNeeded: slot))
    return releasePayload(at: slot)
  }

  @inlinable
  mutating func takeOrder() -> UInt32 {
    if nextOrder == orderLimit { renumber() }
    defer { nextOrder += 1 }
    return nextOrder
  }

  /// Gives every key the rank of its order as its order, so that the counter can start again
  /// from the number of keys. Ranked by order alone, not by deadline first: a repeating action
  /// keeps its order when it moves to a later deadline, where it must still come after the
  /// actions scheduled before it.
  @usableFromInline
  mutating func renumber() {
    removeCancelledKeys()
    precondition(
      count < Int(orderLimit), "TestScheduler: more than \(orderLimit) actions pending at once")
    // Indices below `keys.count` are the heap's, the others `sortedDue`'s.
    let all = keys + sortedDue
    let ranked = all.indices.sorted { all[$0].order < all[$1].order }
    for (rank, index) in ranked.enumerated() {
      let key = Key(deadline: all[index].deadline, order: UInt32(rank), slot: all[index].slot)
      if index < keys.count { keys[index] = key } else { sortedDue[index - keys.count] = key }
    }
    nextOrder = UInt32(all.count)
  }

  // MARK: The heap

  /// Removes and returns the first key (the caller deals with its slot), from `sortedDue` or
  /// from the heap.
  @inlinable
  mutating func removeFirstKey() -> Key {
    if firstIsSortedDue { return sortedDue.removeLast() }
    let first = keys[0]
    let last = keys.removeLast()
    if !keys.isEmpty {
      keys[0] = last
      siftDown(from: 0)
    }
    return first
  }

  /// When nothing is queued, starts the slab again from its beginning, so that a queue that
  /// fills and drains (most tests' pattern) keeps its payloads in order and together.
  @inlinable
  mutating func startSlabAgainIfEmpty() {
    guard isEmpty, !payloads.isEmpty else { return }
    payloads.removeAll(keepingCapacity: true)
    freeSlots.removeAll(keepingCapacity: true)
  }

  /// Drops tombstones from the front, so that the first key is always a live entry's.
  @inlinable
  mutating func dropCancelledFirstKeys() {
    guard cancelledCount > 0 else { return }
    while let key = firstKey, payloads[key.slot].action == nil {
      cancelledCount -= 1
      freeSlots.append(UInt32(truncatingIfNeeded: key.slot))
      _ = removeFirstKey()
    }
  }

  // MARK: Running most of a large queue at once

  /// Readies the queue for running the entries due by `limit` (all of them when `nil`): when
  /// most of a large heap is due, takes the due keys out and sorts them, once, instead of
  /// popping them one at a time. A pop walks from the root to a leaf, one cache miss per level
  /// once the heap outgrows the cache (ten levels at a million keys); a sort streams through
  /// memory. Does nothing for a small queue, or when few keys are due (a sample of 32 keys
  /// decides), so an advance over a little of a large queue stays O(k log n).
  ///
  /// The entries run in the same order either way: the next entry is whichever of the heap's
  /// top and the sorted keys' first runs first, and work scheduled meanwhile joins the heap.
  ///
  /// - Complexity: O(1) when it does nothing; otherwise O(n + k log k) for k due keys, k ≥ n/2.
  @inlinable
  mutating func prepareToRun(through limit: Time?) {
    guard sortedDue.isEmpty, keys.count >= sortThreshold else { return }
    if let limit {
      // Evenly spaced samples, three quarters of which land on leaves, the latest keys.
      let samples = min(32, keys.count)
      let stride = keys.count / samples
      var due = 0
      for sample in 0..<samples where keys[sample * stride + stride - 1].deadline <= limit {
        due += 1
      }
      guard due * 4 >= samples * 3 else { return }
    }
    sortDueKeys(through: limit)
  }

  /// Moves the keys due by `limit` from the heap to `sortedDue`, sorted, and rebuilds the heap
  /// from the rest.
  @inlinable
  mutating func sortDueKeys(through limit: Time?) {
    var kept = 0
    sortedDue.reserveCapacity(keys.count)
    for index in keys.indices {
      let key = keys[index]
      if limit.map({ key.deadline <= $0 }) ?? true {
        sortedDue.append(key)
      } else {
        keys[kept] = key
        kept += 1
      }
    }
    keys.removeLast(keys.count - kept)
    sortedDue.sort { $1.runsBefore($0) }
    layOutPayloadsInRunOrder()
    rebuildHeap()
    dropCancelledFirstKeys()
    checkInvariants()
  }

  /// Moves every payload to a new slab in the order the sorted keys will run (then the heap's),
  /// and gives the keys their new slots, so that running them reads the slab in order: one
  /// random read per payload here, where the loads overlap, instead of one per run, each behind
  /// the scheduler's lock.
  ///
  /// New slots follow the order of `sortedDue`, so no two of its keys change places; the caller
  /// rebuilds the heap afterwards, since its keys' slots break ties between shuffled orders.
  @inlinable
  mutating func layOutPayloadsInRunOrder() {
    // Taken out of `self` (moves, not copies) so that the closures below can write them while
    // the old slab is open.
    var due = ContiguousArray<Key>()
    var heap = ContiguousArray<Key>()
    var old = ContiguousArray<Payload>()
    swap(&due, &sortedDue)
    swap(&heap, &keys)
    swap(&old, &payloads)
    let total = due.count + heap.count
    let empty = Payload(action: nil, handle: nil)
    payloads = old.withUnsafeMutableBufferPointer { old in
      let oldBase = old.baseAddress!
      return ContiguousArray<Payload>(unsafeUninitializedCapacity: total) { slab, initialized in
        let newBase = slab.baseAddress!
        func move(_ key: inout Key, to slot: Int) {
          let payload = (oldBase + key.slot).move()
          // Leaves nothing behind for the old slab to release.
          (oldBase + key.slot).initialize(to: empty)
          payload.handle?.slot = slot
          (newBase + slot).initialize(to: payload)
          key = Key(deadline: key.deadline, order: key.order, slot: slot)
        }
        var slot = 0
        for index in due.indices.reversed() {
          move(&due[index], to: slot)
          slot += 1
        }
        for index in heap.indices {
          move(&heap[index], to: slot)
          slot += 1
        }
        initialized = total
      }
    }
    sortedDue = due
    keys = heap
    freeSlots.removeAll(keepingCapacity: true)
  }

  /// Rebuilds the heap without its tombstones.
  ///
  /// - Complexity: O(n)
  @inlinable
  mutating func removeCancelledKeys() {
    guard cancelledCount > 0 else { return }
    func isCancelled(_ key: Key) -> Bool {
      guard payloads[key.slot].action == nil else { return false }
      freeSlots.append(UInt32(truncatingIfNeeded: key.slot))
      return true
    }
    keys.removeAll(where: isCancelled)
    // A filter, not `removeAll(where:)`, which may reorder what it keeps.
    sortedDue = sortedDue.filter { !isCancelled($0) }
    cancelledCount = 0
    rebuildHeap()
  }

  /// Restores the heap's order over all its keys, bottom up.
  ///
  /// - Complexity: O(n)
  @inlinable
  mutating func rebuildHeap() {
    guard keys.count > 1 else { return }
    for index in stride(from: Self.parent(of: keys.count - 1), through: 0, by: -1) {
      siftDown(from: index)
    }
  }

  // The sifts move keys through a hole in the buffer instead of swapping them: one write per
  // level instead of three, and no uniqueness check per write.

  /// The number of children of each node.
  @inlinable static var arity: Int { 4 }

  @inlinable static func parent(of index: Int) -> Int { (index - 1) / arity }

  @inlinable static func firstChild(of index: Int) -> Int { arity * index + 1 }

  @inlinable
  mutating func siftUp(from start: Int) {
    keys.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress!
      var hole = start
      let moving = (base + hole).move()
      while hole > 0 {
        let parent = Self.parent(of: hole)
        guard moving.runsBefore(base[parent]) else { break }
        (base + hole).moveInitialize(from: base + parent, count: 1)
        hole = parent
      }
      (base + hole).initialize(to: moving)
    }
  }

  @inlinable
  mutating func siftDown(from start: Int) {
    keys.withUnsafeMutableBufferPointer { buffer in
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
        hole = child
      }
      (base + hole).initialize(to: moving)
    }
  }

  /// Checks the queue's invariants when `checksInvariants` is set (the differential fuzz
  /// tests set it): every key runs no earlier than its parent, the top key is live, every key
  /// has a slot of its own, every live entry's handle knows its slot, tombstones are counted,
  /// and every free slot is empty and unreferenced. Otherwise one test of a flag.
  ///
  /// - Complexity: O(n) when checks are on; O(1) otherwise.
  @inlinable @inline(__always)
  func checkInvariants() {
    if checksInvariants { checkInvariantsNow() }
  }

  /// The checks of ``checkInvariants()``, always compiled: the queue's own tests call it.
  ///
  /// - Complexity: O(n)
  @usableFromInline
  func checkInvariantsNow() {
    var referenced = [Bool](repeating: false, count: payloads.count)
    var tombstones = 0
    for (index, key) in sortedDue.enumerated() {
      if index > 0 {
        precondition(
          key.runsBefore(sortedDue[index - 1]),
          "ScheduleQueue: the sorted due keys are out of order at \(index)")
      }
      let slot = key.slot
      precondition(slot < payloads.count, "ScheduleQueue: the due key at \(index) has no slot")
      precondition(!referenced[slot], "ScheduleQueue: two keys share slot \(slot)")
      referenced[slot] = true
      if payloads[slot].action == nil { tombstones += 1 }
    }
    if let first = firstKey {
      precondition(
        payloads[first.slot].action != nil, "ScheduleQueue: the first key is a tombstone")
    }
    for index in keys.indices {
      let slot = keys[index].slot
      precondition(slot < payloads.count, "ScheduleQueue: the key at \(index) has no slot")
      precondition(!referenced[slot], "ScheduleQueue: two keys share slot \(slot)")
      referenced[slot] = true
      let payload = payloads[slot]
      if payload.action == nil {
        tombstones += 1
        precondition(payload.handle == nil, "ScheduleQueue: the tombstone at \(slot) has a handle")
      } else if let handle = payload.handle {
        precondition(
          handle.slot == slot, "ScheduleQueue: the handle of slot \(slot) says \(handle.slot)")
      }
      if index > 0 {
        let parent = Self.parent(of: index)
        precondition(
          !keys[index].runsBefore(keys[parent]),
          "ScheduleQueue: the key at \(index) runs before its parent at \(parent)")
      }
    }
    precondition(
      tombstones == cancelledCount,
      "ScheduleQueue: \(tombstones) tombstones, \(cancelledCount) counted")
    for slot in freeSlots.map(Int.init) {
      precondition(!referenced[slot], "ScheduleQueue: the free slot \(slot) has a key")
      referenced[slot] = true
      precondition(
        payloads[slot].action == nil && payloads[slot].handle == nil,
        "ScheduleQueue: the free slot \(slot) holds a payload")
    }
    precondition(
      !referenced.contains(false), "ScheduleQueue: a slot is neither free nor referenced")
  }
}

/// The identity of a queued entry that can be cancelled: a repeating action or, later, a
/// sleeper. Its slot is read and written only while the owning scheduler's mutex is held,
/// which is why the class can be `@unchecked Sendable`.
@usableFromInline
final class ScheduleQueueHandle<Time: Strideable>: @unchecked Sendable {
  @usableFromInline static var notQueued: Int { -1 }

  /// The entry's slot in the queue's payloads (stable while it is queued), or `notQueued`.
  /// Guarded by the owner's mutex.
  @usableFromInline var slot: Int = notQueued
  /// The repeat interval, or `nil` for a one-shot entry.
  @usableFromInline let interval: Time.Stride?
  /// Where the work was scheduled, when the API could know it (sleeps, timers).
  @usableFromInline let callSite: CallSite?
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

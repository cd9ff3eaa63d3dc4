import Testing

@testable import Schedulers

/// The test scheduler's queue on its own, against a sorted list, with every invariant checked
/// after every operation. The differential fuzz reaches the queue only through the scheduler,
/// with a few dozen operations a program: too few to fill it with tombstones, to wrap its order
/// counter, or to make it sort its due keys (from 32,768 keys on), the paths checked here with
/// small limits. The fuzzers and the large queue run off the cooperative pool; the quick checks
/// stay on it, not behind them in the heavy tests' one queue.
@Suite("The test scheduler's queue against a sorted list")
struct ScheduleQueueTests {
  /// One queued action of the model: what the queue must hand back, in which order.
  struct Expected {
    var deadline: Int
    var sequence: Int
    var id: Int
    var handle: ScheduleQueueHandle<Int>?
  }

  /// Which action an entry runs: every action writes its id here. `@unchecked Sendable`: the
  /// test is single-threaded.
  final class Ran: @unchecked Sendable {
    var id = -1
  }

  /// Runs `steps` seeded random operations on a queue and on a sorted list, and checks after
  /// each that the queue's invariants hold and both agree on count, first deadline and order.
  static func fuzz(
    queue: inout ScheduleQueue<Int>, seed: UInt64, steps: Int, maxPending: Int,
    cancelWeight: UInt64
  ) {
    var random = SplitMix64(seed: seed)
    var model: [Expected] = []
    var sequence = 0
    var nextID = 0
    let ran = Ran()
    func sortModel() { model.sort { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) } }
    func identify(_ entry: ScheduleQueue<Int>.Entry) -> Int {
      entry.action()
      return ran.id
    }

    for step in 0..<steps {
      let choice = random.next() % (5 + cancelWeight)
      if choice == 4 {
        // As an advance begins: through a deadline, or (run()) through everything.
        queue.prepareToRun(through: random.next() % 4 == 0 ? nil : Int(random.next() % 8))
      } else if model.isEmpty || (choice == 0 && model.count < maxPending) || choice == 1 {
        guard model.count < maxPending else { continue }
        // Few distinct deadlines, so that many entries tie and the order decides.
        let deadline = Int(random.next() % 8)
        let id = nextID
        nextID += 1
        let handle =
          random.next() % 2 == 0 ? ScheduleQueueHandle<Int>(interval: Int(random.next() % 3)) : nil
        queue.insert(deadline: deadline, action: { ran.id = id }, handle: handle)
        model.append(Expected(deadline: deadline, sequence: sequence, id: id, handle: handle))
        sequence += 1
        sortModel()
      } else if choice == 2 {
        let entry = queue.removeFirst()
        let expected = model.removeFirst()
        #expect(identify(entry) == expected.id, "step \(step): removeFirst")
        #expect(entry.deadline == expected.deadline)
        #expect(entry.handle === expected.handle)
        if let handle = expected.handle {
          #expect(handle.slot == ScheduleQueueHandle<Int>.notQueued, "a run entry is not queued")
        }
      } else if choice == 3 {
        // As a repeating action reschedules itself: later, and keeping its order.
        let next = model[0].deadline + Int(random.next() % 4)
        let entry = queue.rescheduleFirst(at: next)
        #expect(identify(entry) == model[0].id, "step \(step): rescheduleFirst")
        #expect(entry.deadline == model[0].deadline)
        model[0].deadline = next
        sortModel()
      } else {
        let cancellable = model.indices.filter { model[$0].handle != nil }
        guard let index = cancellable.randomElement(using: &random) else { continue }
        let action = queue.cancel(model[index].handle!)
        #expect(action != nil, "step \(step): cancel found its entry")
        #expect(queue.cancel(model[index].handle!) == nil, "a second cancel does nothing")
        model.remove(at: index)
      }
      queue.checkInvariantsNow()
      #expect(queue.count == model.count, "step \(step): count")
      #expect(queue.firstDeadline == model.first?.deadline, "step \(step): first deadline")
      #expect(queue.isEmpty == model.isEmpty)
      #expect(queue.firstHandle === model.first?.handle)
    }
    #expect(queue.sortedEntries().map(identify) == model.map(\.id))
  }

  @Test(.offTheCooperativePool, arguments: 0..<20)
  func agreesWithASortedListUnderHeavyCancellation(seed: UInt64) {
    var queue = ScheduleQueue<Int>(sortThreshold: 8)
    Self.fuzz(queue: &queue, seed: seed, steps: 3_000, maxPending: 300, cancelWeight: 6)
  }

  /// An order limit of 50 with up to 40 pending: the counter wraps every few dozen insertions,
  /// and the renumbered keys must keep first-in, first-out among equal deadlines.
  @Test(.offTheCooperativePool, arguments: 0..<20)
  func keepsFirstInFirstOutAcrossRenumbering(seed: UInt64) {
    var queue = ScheduleQueue<Int>(orderLimit: 50, sortThreshold: 8)
    Self.fuzz(queue: &queue, seed: seed, steps: 3_000, maxPending: 40, cancelWeight: 1)
    #expect(queue.nextOrder <= 50)
  }

  /// With the default threshold, as the scheduler uses it: a large queue mostly due sorts its
  /// due keys (and runs them in the same order), a large queue little of which is due does not.
  @Test(.offTheCooperativePool) func sortsTheDueKeysOnlyWhenMostOfALargeQueueIsDue() {
    var queue = ScheduleQueue<Int>()
    let count = 40_000
    var random = SplitMix64(seed: 7)
    let ran = Ran()
    for id in 0..<count {
      queue.insert(deadline: Int(random.next() % 1_000), action: { ran.id = id }, handle: nil)
    }
    queue.prepareToRun(through: 100)
    #expect(queue.sortedDue.isEmpty, "a tenth is due: the heap serves it")
    queue.prepareToRun(through: 900)
    #expect(queue.sortedDue.count > count * 8 / 10)
    queue.checkInvariantsNow()
    var previous = (deadline: Int.min, id: -1)
    for _ in 0..<count {
      let entry = queue.removeFirst()
      entry.action()
      #expect(
        (previous.deadline, previous.id) < (entry.deadline, ran.id),
        "deadline order, then first-in, first-out")
      previous = (entry.deadline, ran.id)
    }
    #expect(queue.isEmpty)
  }

  /// Cancelling work that is not first leaves tombstones; they must not outnumber the live
  /// entries for long, however much is cancelled.
  @Test func tombstonesStayFewerThanLiveEntries() {
    var queue = ScheduleQueue<Int>()
    var handles: [ScheduleQueueHandle<Int>] = []
    queue.insert(deadline: 0, action: {}, handle: nil)
    for deadline in 1...10_000 {
      let handle = ScheduleQueueHandle<Int>(interval: nil)
      queue.insert(deadline: deadline, action: {}, handle: handle)
      handles.append(handle)
    }
    for handle in handles { _ = queue.cancel(handle) }
    queue.checkInvariantsNow()
    #expect(queue.count == 1)
    #expect(queue.keys.count <= 16)
    #expect(queue.payloads.count - queue.freeSlots.count == queue.keys.count)
  }

  /// Cancelling the first entry drops it at once, so the next deadline is a live entry's.
  @Test func cancellingTheFirstEntryShowsTheNextLiveOne() {
    var queue = ScheduleQueue<Int>()
    let first = ScheduleQueueHandle<Int>(interval: nil)
    let second = ScheduleQueueHandle<Int>(interval: nil)
    queue.insert(deadline: 1, action: {}, handle: first)
    queue.insert(deadline: 2, action: {}, handle: second)
    queue.insert(deadline: 3, action: {}, handle: nil)
    _ = queue.cancel(second)
    _ = queue.cancel(first)
    queue.checkInvariantsNow()
    #expect(queue.firstDeadline == 3)
    #expect(queue.count == 1)
  }

  /// A queue whose checks are on (as the differential fuzz tests' schedulers' are) stops at the
  /// first change after its heap order broke, naming it; with the checks off, the same change
  /// goes by unseen, so a fuzz run without them would prove nothing about the heap.
  @Test(.exitTestOffThePool) func aQueueWithChecksOnStopsAtABrokenHeapOrder() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var queue = ScheduleQueue<Int>()
      queue.checksInvariants = true
      for deadline in [1, 2, 3] { queue.insert(deadline: deadline, action: {}, handle: nil) }
      queue.keys.swapAt(0, 2)  // the latest deadline on top: the heap order is broken
      queue.insert(deadline: 4, action: {}, handle: nil)
    }
    expectStandardError(of: result, toContain: "ScheduleQueue:")
    var unchecked = ScheduleQueue<Int>()
    for deadline in [1, 2, 3] { unchecked.insert(deadline: deadline, action: {}, handle: nil) }
    unchecked.keys.swapAt(0, 2)
    unchecked.insert(deadline: 4, action: {}, handle: nil)  // no check: nothing stops it
  }
}

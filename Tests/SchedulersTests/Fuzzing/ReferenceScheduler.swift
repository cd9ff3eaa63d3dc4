/// The test scheduler's semantics, written as plainly as possible: a list kept sorted by
/// (deadline, sequence), scanned and re-sorted on every step. Slow on purpose, and easy to check
/// by reading. The differential fuzzer runs the same programs on it and on `TestScheduler`.
final class ReferenceScheduler {
  struct Entry {
    var deadline: Int
    var sequence: Int
    var id: Int
    var interval: Int?
    /// Only repeating and cancellable work can be cancelled, as on the real schedulers.
    var cancellable: Bool
    var nested: [FuzzProgram.Operation]
  }

  private(set) var now: Int
  private var entries: [Entry] = []
  private var sequence = 0
  private(set) var log: [FuzzProgram.Fired] = []

  init(now: Int) { self.now = now }

  var hasRepeatingWork: Bool { entries.contains { $0.interval != nil } }

  func schedule(
    id: Int, at deadline: Int, interval: Int?, cancellable: Bool, nested: [FuzzProgram.Operation]
  ) {
    entries.append(
      Entry(
        deadline: deadline, sequence: sequence, id: id, interval: interval,
        cancellable: cancellable || interval != nil, nested: nested))
    sequence += 1
    entries.sort { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
  }

  func cancel(id: Int) { entries.removeAll { $0.id == id && $0.cancellable } }

  var pendingCount: Int { entries.count }
  var nextDeadline: Int? { entries.first?.deadline }

  func advance(to target: Int, perform: (FuzzProgram.Operation) -> Void) {
    let limit = max(target, now)
    while let first = entries.first, first.deadline <= limit {
      step(perform: perform)
    }
    now = max(now, target)
  }

  func run(maxActions: Int, perform: (FuzzProgram.Operation) -> Void) {
    var ran = 0
    while ran < maxActions, !entries.isEmpty {
      step(perform: perform)
      ran += 1
    }
  }

  private func step(perform: (FuzzProgram.Operation) -> Void) {
    let first = entries.removeFirst()
    now = max(now, first.deadline)
    if let interval = first.interval {
      // A repeating action keeps the place it was first scheduled in, as in combine-schedulers.
      var next = first
      next.deadline = first.deadline + interval
      entries.append(next)
      entries.sort { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
    }
    log.append(.init(id: first.id, now: now))
    for operation in first.nested { perform(operation) }
  }
}

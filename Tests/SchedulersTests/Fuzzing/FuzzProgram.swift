import Schedulers

/// A random program of scheduler operations, generated from a seed.
struct FuzzProgram: CustomStringConvertible {
  indirect enum Operation: CustomStringConvertible, Sendable {
    /// Schedules action `id` at `now + offset` (the offset may be negative: in the past). When
    /// it runs, it performs `nested`.
    case schedule(id: Int, offset: Int, interval: Int?, cancellable: Bool, nested: [Operation])
    case cancel(id: Int)
    case advanceBy(Int)
    case advanceTo(Int)
    case run
    /// A task awaits `waitForPendingWork(count:)`; when `cancelled`, another thread cancels it
    /// at once, racing the scheduling that would satisfy it. Waiting changes nothing the
    /// reference model tracks: the differential check proves it, and the waiter must end
    /// either satisfied or with `CancellationError`, never hang.
    case waitForPendingWork(count: Int, cancelled: Bool)

    var description: String {
      switch self {
      case .schedule(let id, let offset, let interval, let cancellable, let nested):
        let kind = interval.map { "every \($0)" } ?? (cancellable ? "cancellable" : "once")
        let inner =
          nested.isEmpty ? "" : " then [\(nested.map(\.description).joined(separator: ", "))]"
        return "schedule #\(id) at now\(offset >= 0 ? "+" : "")\(offset) \(kind)\(inner)"
      case .cancel(let id): return "cancel #\(id)"
      case .advanceBy(let stride): return "advance(by: \(stride))"
      case .advanceTo(let instant): return "advance(to: \(instant))"
      case .run: return "run()"
      case .waitForPendingWork(let count, let cancelled):
        return "waitForPendingWork(count: \(count))\(cancelled ? " then cancel" : "")"
      }
    }
  }

  struct Fired: Equatable, CustomStringConvertible, Sendable {
    var id: Int
    var now: Int
    var description: String { "#\(id)@\(now)" }
  }

  var operations: [Operation]

  var description: String {
    operations.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n")
  }

  /// A program of about `length` operations, from `seed`.
  static func generate(seed: UInt64, length: Int) -> FuzzProgram {
    var random = FuzzRandom(seed: seed)
    var nextID = 0
    func schedule(depth: Int) -> Operation {
      nextID += 1
      let id = nextID
      // Only top-level work repeats: run() is then safe whenever nothing repeats yet.
      let repeating = depth == 0 && random.chance(1, in: 6)
      let nested: [Operation] =
        depth < 2 && random.chance(1, in: 3)
        ? (0..<random.int(in: 1...2)).map { _ in
          random.chance(1, in: 3) && nextID > 1
            ? .cancel(id: random.int(in: 1...nextID)) : schedule(depth: depth + 1)
        } : []
      return .schedule(
        id: id, offset: random.int(in: -3...12), interval: repeating ? random.int(in: 1...5) : nil,
        cancellable: random.chance(1, in: 3), nested: nested)
    }
    var operations: [Operation] = []
    for _ in 0..<length {
      switch random.int(in: 0...10) {
      case 0...4: operations.append(schedule(depth: 0))
      case 5: if nextID > 0 { operations.append(.cancel(id: random.int(in: 1...nextID))) }
      case 6, 7: operations.append(.advanceBy(random.int(in: 0...6)))
      case 8: operations.append(.advanceTo(random.int(in: 0...60)))
      case 9: operations.append(.run)
      default:
        operations.append(
          .waitForPendingWork(count: random.int(in: 0...4), cancelled: random.chance(1, in: 2)))
      }
    }
    return FuzzProgram(operations: operations)
  }
}

/// Seeded random choices (the package's one `SplitMix64`), so a failing seed reproduces the
/// same program.
struct FuzzRandom {
  private var generator: SplitMix64
  init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  mutating func next() -> UInt64 { generator.next() }

  mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
    int(in: 1...denominator) <= numerator
  }
}

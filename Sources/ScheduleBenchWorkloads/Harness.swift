/// One measured workload at one size.
public struct BenchmarkResult: Sendable {
  public let workload: String
  public let size: Int
  /// Nanoseconds per action, one figure per timed repetition.
  public let nanosecondsPerAction: [Double]

  public var median: Double {
    let sorted = nanosecondsPerAction.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  public var minimum: Double { nanosecondsPerAction.min() ?? .nan }

  public var actionsPerSecond: Double { 1e9 / median }
}

/// A workload that ran a different number of actions than it scheduled.
public struct MissingActions: Error, CustomStringConvertible {
  public let workload: String
  public let expected: Int
  public let ran: Int
  public var description: String {
    "\(workload): scheduled \(expected) actions but \(ran) ran; refusing to report a figure"
  }
}

/// Times a workload: one untimed warm-up, then `repetitions` timed runs, checking each count.
public func measure(
  _ workload: Workload, size: Int, repetitions: Int,
  clock: ContinuousClock = ContinuousClock()
) throws -> BenchmarkResult {
  let warmUp = workload.run(size)
  guard warmUp == size else {
    throw MissingActions(workload: workload.name, expected: size, ran: warmUp)
  }
  var figures: [Double] = []
  for _ in 0..<repetitions {
    var ran = 0
    let elapsed = clock.measure { ran = workload.run(size) }
    guard ran == size else {
      throw MissingActions(workload: workload.name, expected: size, ran: ran)
    }
    let (seconds, attoseconds) = elapsed.components
    let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    figures.append(nanoseconds / Double(size))
  }
  return BenchmarkResult(workload: workload.name, size: size, nanosecondsPerAction: figures)
}

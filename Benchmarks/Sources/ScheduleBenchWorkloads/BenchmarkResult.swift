/// One measured workload at one size.
public struct BenchmarkResult: Sendable {
  public let workload: String
  public let size: Int
  /// Nanoseconds per action, one figure per timed repetition.
  public let nanosecondsPerAction: [Double]

  public init(workload: String, size: Int, nanosecondsPerAction: [Double]) {
    self.workload = workload
    self.size = size
    self.nanosecondsPerAction = nanosecondsPerAction
  }

  public var median: Double {
    let sorted = nanosecondsPerAction.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  public var minimum: Double { nanosecondsPerAction.min() ?? .nan }

  public var actionsPerSecond: Double { 1e9 / median }
}

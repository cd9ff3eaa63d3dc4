/// The countdown of the test suite's stories (and of the Blabber article): ticks once a second
/// from three to zero.
@MainActor public final class CountdownModel {
  public private(set) var secondsLeft: Int?
  public private(set) var finished = false
  private var ticking: Task<Void, Never>?
  private let sleep: @Sendable (Duration) async throws -> Void

  public init(sleep: @escaping @Sendable (Duration) async throws -> Void) { self.sleep = sleep }

  public func start() {
    ticking = Task {
      for seconds in stride(from: 3, to: 0, by: -1) {
        secondsLeft = seconds
        do { try await sleep(.seconds(1)) } catch { return }
      }
      secondsLeft = 0
      finished = true
    }
  }

  public func stop() { ticking?.cancel() }
}

/// The countdown's test: each second of advance shows the next count. True when every check held.
@MainActor public func countdownTest(
  _ model: CountdownModel, advance: (Duration) async -> Void
) async -> Bool {
  model.start()
  var passed = true
  for expected in [2, 1, 0] {
    await advance(.seconds(1))
    passed = passed && model.secondsLeft == expected
  }
  passed = passed && model.finished
  model.stop()
  return passed
}

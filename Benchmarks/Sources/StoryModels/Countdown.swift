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

/// The countdown's model on an actor of its own instead of the main actor, for tests whose
/// body is not main-actor code: the same ticking task, isolated to the actor.
public actor CountdownActor {
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

/// `countdownTest` for the actor's model, from a body that is not main-actor code: the same
/// checks, each an `await` on the actor.
public func countdownActorTest(
  _ model: CountdownActor, advance: (Duration) async -> Void
) async -> Bool {
  await model.start()
  var passed = true
  for expected in [2, 1, 0] {
    await advance(.seconds(1))
    let secondsLeft = await model.secondsLeft
    passed = passed && secondsLeft == expected
  }
  let finished = await model.finished
  passed = passed && finished
  await model.stop()
  return passed
}

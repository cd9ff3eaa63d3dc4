import SchedulersTesting

/// What isolation hops cost inside a deterministic run against the same hops outside: a hop
/// that needs a job (main actor <-> global) is one the run queues and its driver runs.
extension Workload {
  /// Two actors hand a value back and forth `size` times, outside any run. (The runtime
  /// switches between two free default actors on the same thread, without a job: this is
  /// the cost of an isolation hop that stays on the thread.)
  public static let actorPingPong = Workload(
    name: "actor-ping-pong",
    summary: "Two actors hand a value back and forth n times (2 hops each), no run",
    largestSize: 1_000_000
  ) { (size: Int) async -> Int in
    await Ping().play(rounds: size, with: Pong())
  }

  /// The same inside `withDeterministicExecution`.
  public static let deterministicActorPingPong = Workload(
    name: "deterministic-actor-ping-pong",
    summary: "The same two actors inside withDeterministicExecution",
    largestSize: 1_000_000
  ) { (size: Int) async -> Int in
    (try? await withDeterministicExecution { await Ping().play(rounds: size, with: Pong()) }) ?? 0
  }

  /// Main-actor code awaits an actor `size` times: each round trip leaves the main actor for
  /// the global executor and comes back (two jobs, on two threads), outside any run.
  public static let mainActorPingPong = Workload.onMainQueue(
    name: "main-ping-pong",
    summary: "@MainActor code awaits an actor n times (main <-> global, 2 jobs each), no run",
    largestSize: 1_000_000
  ) { (size: Int) async -> Int in
    await mainActorRounds(size)
  }

  /// The same inside `withDeterministicExecution`: main-actor jobs run on the main queue, the
  /// others on the run's driver.
  public static let deterministicMainActorPingPong = Workload.onMainQueue(
    name: "deterministic-main-ping-pong",
    summary: "The same main <-> global hops inside withDeterministicExecution",
    largestSize: 1_000_000
  ) { (size: Int) async -> Int in
    (try? await withDeterministicExecution { await mainActorRounds(size) }) ?? 0
  }
}

extension Workload {
  /// An asynchronous workload that runs main-actor code.
  fileprivate static func onMainQueue(
    name: String, summary: String, largestSize: Int,
    runAsync: @escaping @Sendable (_ size: Int) async -> Int
  ) -> Workload {
    var workload = Workload(
      name: name, summary: summary, largestSize: largestSize, runAsync: runAsync)
    workload.needsMainQueue = true
    return workload
  }
}

private actor Ping {
  var count = 0

  func play(rounds: Int, with pong: Pong) async -> Int {
    for _ in 0..<rounds { count = await pong.answer(count) }
    return count
  }
}

/// Changes state of its own on every call, so that a call must really run on the actor (a
/// hop to an actor that touches nothing isolated can be optimised away).
private actor Pong {
  var answered = 0

  func answer(_ value: Int) -> Int {
    answered += 1
    return value + 1
  }
}

@MainActor private func mainActorRounds(_ rounds: Int) async -> Int {
  let pong = Pong()
  var count = 0
  for _ in 0..<rounds { count = await pong.answer(count) }
  return count
}

import AsyncAlgorithmsWorkloads
import CombineSchedulersWorkloads
import ScheduleBenchWorkloads
import SwiftClocksWorkloads

/// What another implementation must do relative to ours, read as "theirs ÷ ours" (the number
/// of times slower theirs is per action).
struct Target: Sendable {
  /// The smallest acceptable ratio.
  let minimumRatio: Double
  /// The sizes the target applies to (`nil`: every size).
  let sizes: Set<Int>?
  /// The target as the issue tracker words it.
  let wording: String

  func applies(to size: Int) -> Bool { sizes?.contains(size) ?? true }
}

/// Another implementation of a workload, measured beside ours.
struct Rival: Sendable {
  let label: String
  let workload: Workload
  let target: Target?
  /// Whether it belongs to a peer (skipped when predicted too slow) or to this package.
  let isPeer: Bool
}

/// One of our workloads and what it is compared with.
struct Comparison: Sendable {
  let name: String
  let summary: String
  let ours: Workload
  let rivals: [Rival]
}

extension Workload {
  /// A peer's workload over the seeded random deadlines that ours use.
  static func peerRandom(
    _ name: String, _ run: @escaping @Sendable (_ offsets: [Int], _ horizon: Int) -> Int,
    expectedCount: @escaping @Sendable (Int) -> Int = { $0 }
  ) -> Workload {
    Workload(name: name, summary: name, expectedCount: expectedCount) { size in
      run(randomOffsets(count: size), horizon(count: size))
    }
  }
}

let combine = "combine-schedulers 1.2.2"

/// Every comparison, in table order.
let comparisons: [Comparison] = [
  Comparison(
    name: "random",
    summary: "schedule n actions at seeded random deadlines, then advance past all",
    ours: .testSchedulerRandom,
    rivals: [
      Rival(
        label: "\(combine) TestScheduler",
        workload: .peerRandom("combine-random", CombineSchedulersWorkloads.random),
        target: Target(minimumRatio: 1_000, sizes: [10_000], wording: "≥ 1000x at 10k"),
        isPeer: true),
      Rival(
        label: "reference locked heap", workload: .referenceHeap,
        target: Target(minimumRatio: 1 / 1.5, sizes: nil, wording: "ours within 1.5x"),
        isPeer: false),
    ]),
  Comparison(
    name: "cancel-half",
    summary: "n repeating schedules at random deadlines, every other cancelled, then advance",
    ours: .testSchedulerCancelHalf,
    rivals: [
      Rival(
        label: "\(combine) TestScheduler",
        workload: .peerRandom(
          "combine-cancel-half", CombineSchedulersWorkloads.cancelHalf,
          expectedCount: { $0 / 2 }),
        target: nil, isPeer: true)
    ]),
  Comparison(
    name: "chain",
    summary: "each action schedules its successor 1 ms later; one advance runs the chain",
    ours: .testSchedulerChain,
    rivals: [
      Rival(
        label: "\(combine) TestScheduler",
        workload: Workload(name: "combine-chain", summary: "") { size in
          CombineSchedulersWorkloads.chain(size: size, horizon: Workload.horizon(count: size))
        },
        target: nil, isPeer: true)
    ]),
  Comparison(
    name: "same-instant",
    summary: "n actions due at the same instant (first-in first-out), one advance",
    ours: .testSchedulerSameInstant,
    rivals: [
      Rival(
        label: "\(combine) TestScheduler",
        workload: Workload(name: "combine-same-instant", summary: "") { size in
          CombineSchedulersWorkloads.sameInstant(size: size)
        },
        target: nil, isPeer: true)
    ]),
  Comparison(
    name: "any-scheduler",
    summary: "the random workload through AnyScheduler over the test scheduler",
    ours: .anyTestSchedulerRandom,
    rivals: [
      Rival(
        label: "this package's TestScheduler, not erased", workload: .testSchedulerRandom,
        target: Target(minimumRatio: 1 / 1.3, sizes: nil, wording: "erasure within 1.3x"),
        isPeer: false),
      Rival(
        label: "\(combine) AnyScheduler",
        workload: .peerRandom("combine-any-random", CombineSchedulersWorkloads.anyRandom),
        target: nil, isPeer: true),
    ]),
  Comparison(
    name: "immediate",
    summary: "n actions on the immediate scheduler, each run at once",
    ours: .immediate,
    rivals: [
      Rival(
        label: "\(combine) ImmediateScheduler",
        workload: Workload(name: "combine-immediate", summary: "") { size in
          CombineSchedulersWorkloads.immediate(size: size)
        },
        target: nil, isPeer: true)
    ]),
  Comparison(
    name: "sleepers",
    summary: "n tasks sleep until random deadlines on a test clock, one advance wakes all",
    ours: .testSchedulerSleepers,
    rivals: [
      Rival(
        label: "swift-clocks 1.1.1 TestClock",
        workload: Workload(name: "clocks-sleepers", summary: "") { (size: Int) async -> Int in
          await SwiftClocksWorkloads.sleepers(
            offsets: Workload.randomOffsets(count: size), horizon: Workload.horizon(count: size))
        },
        target: Target(minimumRatio: 1_000, sizes: [10_000], wording: "≥ 1000x at 10k"),
        isPeer: true),
      Rival(
        label: "this package, in a deterministic run", workload: .deterministicSleepers,
        target: nil, isPeer: false),
    ]),
  Comparison(
    name: "debounce",
    summary: "debounce n elements spaced wider than the interval on a test scheduler",
    ours: .debounce,
    rivals: [
      Rival(
        label: "swift-async-algorithms 1.1.4 debounce, same clock and run",
        workload: .asyncAlgorithmsDebounce, target: nil, isPeer: true),
      // Not the same thing: an AsyncSequence operator against a synchronous Combine call chain
      // (no tasks, no suspension). Kept as what a Combine user pays today.
      Rival(
        label:
          "not like for like: Combine debounce (OpenCombine 0.14.0, synchronous) on \(combine)",
        workload: Workload(name: "combine-debounce", summary: "") { size in
          CombineSchedulersWorkloads.debounce(size: size)
        },
        target: nil, isPeer: true),
    ]),
  Comparison(
    name: "throttle",
    summary: "throttle (latest) n elements spaced wider than the interval, in a deterministic run",
    ours: .throttle,
    rivals: [
      Rival(
        label: "swift-async-algorithms 1.1.4 _throttle, same clock and run",
        workload: .asyncAlgorithmsThrottle, target: nil, isPeer: true)
    ]),
  Comparison(
    name: "debouncer",
    summary: "the callback Debouncer: n calls spaced wider than the interval on a test scheduler",
    ours: .debouncer,
    rivals: [
      Rival(
        label: "Combine debounce (OpenCombine 0.14.0) on \(combine) TestScheduler",
        workload: Workload(name: "combine-debounce", summary: "") { size in
          CombineSchedulersWorkloads.debounce(size: size)
        },
        target: Target(minimumRatio: 1, sizes: nil, wording: "≥ 1x"), isPeer: true)
    ]),
  Comparison(
    name: "sleepers-in-run",
    summary: "the sleepers inside withDeterministicExecution, against the same outside a run",
    ours: .deterministicSleepers,
    rivals: [
      Rival(
        label: "the same sleepers outside a run", workload: .testSchedulerSleepers,
        target: Target(minimumRatio: 1 / 1.2, sizes: nil, wording: "in a run within 1.2x"),
        isPeer: false)
    ]),
  Comparison(
    name: "actor-ping-pong",
    summary: "two actors hand a value back and forth n times, inside a deterministic run",
    ours: .deterministicActorPingPong,
    rivals: [
      Rival(
        label: "the same outside a run", workload: .actorPingPong,
        target: Target(minimumRatio: 1 / 2, sizes: nil, wording: "in a run within 2x"),
        isPeer: false)
    ]),
  Comparison(
    name: "main-ping-pong",
    summary: "@MainActor code awaits an actor n times (main <-> global), in a deterministic run",
    ours: .deterministicMainActorPingPong,
    rivals: [
      Rival(
        label: "the same outside a run", workload: .mainActorPingPong,
        target: Target(minimumRatio: 1 / 2, sizes: nil, wording: "in a run within 2x"),
        isPeer: false)
    ]),
  Comparison(
    name: "dispatch",
    summary: "n actions on a serial DispatchQueue in one group, then wait",
    ours: .dispatchSerial,
    rivals: [
      Rival(
        label: "raw DispatchQueue.async", workload: .dispatchRaw,
        target: Target(minimumRatio: 1 / 1.2, sizes: nil, wording: "ours within 1.2x"),
        isPeer: false),
      Rival(
        label: "OpenCombine 0.14.0 DispatchQueue scheduler",
        workload: Workload(name: "opencombine-dispatch", summary: "") { size in
          CombineSchedulersWorkloads.dispatchSerial(size: size)
        },
        target: nil, isPeer: true),
    ]),
]

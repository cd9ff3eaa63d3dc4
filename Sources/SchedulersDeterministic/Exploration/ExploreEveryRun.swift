import Schedulers
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Every deterministic run of the process takes a schedule of its own, for stress runs of a
/// suite written without exploration: `SCHEDULERS_EXPLORE_EVERY_RUN=pct` (PCT, depth 3) or
/// `=random` (a random walk). Each run gets the next seed of a process-wide sequence that
/// starts at `SCHEDULERS_EXPLORATION_SEED` (or the default seed), so `--repetitions 1000` runs
/// each test under 1,000 schedules. A test that fails there is named by the test runner; to get
/// a seed that replays it, run that test under `.exploring`. Read once, at the first run; not
/// for apps.
enum ExploreEveryRun {
  static let strategy: DeterministicExecution.ExplorationStrategy? = {
    EnvironmentValue.read("SCHEDULERS_EXPLORE_EVERY_RUN", expected: "pct or random") {
      switch $0 {
      case "pct": .pct(depth: 3)
      case "random": .randomWalk
      default: nil
      }
    }
  }()

  private static let next = Atomic<UInt64>(0)

  /// A chooser for the next run, or `nil` when the variable is not set.
  static func nextChooser() -> ScheduleChooser? {
    guard let strategy else { return nil }
    let index = next.add(1, ordering: .relaxed).oldValue
    let base =
      environmentNumber("SCHEDULERS_EXPLORATION_SEED")
      ?? DeterministicExecution.Exploration.defaultSeed
    let exploration = DeterministicExecution.Exploration.exploring(
      schedules: 1, strategy: strategy, seed: base)
    // A test's runs are short: PCT spreads its change points over the first 64 jobs.
    return exploration.seededSchedule(
      exploration.seed(ofSchedule: Int(truncatingIfNeeded: index)), expectedSteps: 64)
  }
}

/// A variable's value as a number, decimal or `0x` hexadecimal; `nil` when unset; a value that
/// is not one stops the process, saying so.
package func environmentNumber(_ name: String) -> UInt64? {
  EnvironmentValue.read(name, expected: EnvironmentValue.numberExpected, EnvironmentValue.number)
}

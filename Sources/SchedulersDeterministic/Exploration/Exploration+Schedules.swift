// The schedules an exploration runs, and their order: one definition for every loop that
// explores (the `.exploring` trait and `exploreSchedules`, and the suite exploration's XCTest
// hook), so that a seed names the same schedule whichever loop found it.

extension DeterministicExecution.Exploration {
  /// The order of every run that does not explore: first in, first out, each hop between actors
  /// taken in place. Every exploration runs it first; a failure there needs no seed to replay.
  package func firstInFirstOutSchedule() -> ScheduleChooser {
    let chooser = ScheduleChooser(strategy: nil, seed: 0, expectedSteps: 1)
    chooser.maxJobs = maxJobsPerSchedule
    chooser.hopsAreJobs = false
    return chooser
  }

  /// Schedule 1, seed 0: first in, first out, with each hop between actors a job of its own.
  /// Its length (``ScheduleChooser/stepsFromFirstChoice``) is the span over which PCT spreads a
  /// seeded schedule's change points, so a replay runs it too, before the seed it replays.
  package func hopsAsJobsSchedule() -> ScheduleChooser {
    let chooser = ScheduleChooser(strategy: nil, seed: 0, expectedSteps: 1)
    chooser.maxJobs = maxJobsPerSchedule
    return chooser
  }

  /// The schedule `seed` names under the exploration's strategy, for a span of `expectedSteps`
  /// (schedule 1's length; an exhaustive schedule's seed is its script, and needs none).
  package func seededSchedule(_ seed: UInt64, expectedSteps: Int) -> ScheduleChooser {
    let chooser = ScheduleChooser(strategy: strategy, seed: seed, expectedSteps: expectedSteps)
    chooser.maxJobs = maxJobsPerSchedule
    return chooser
  }

  /// The seeded schedules after schedule 1 that this process runs, in order: schedule
  /// `index + 1` with the seed `seed(ofSchedule: index)`. Without a shard, every one; with
  /// shard `k/n` (`SCHEDULERS_EXPLORATION_SHARD`), every `n`th of the same sequence from its own.
  package func seededSchedules(in shard: (number: Int, count: Int)?)
    -> some Sequence<(index: Int, seed: UInt64)>
  {
    let exploration = self
    return (1..<max(schedules, 1)).lazy
      .filter { index in shard.map { index % $0.count == $0.number - 1 } ?? true }
      .map { index in (index: index, seed: exploration.seed(ofSchedule: index)) }
  }
}

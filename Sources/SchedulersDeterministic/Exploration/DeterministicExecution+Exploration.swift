extension DeterministicExecution {
  /// Runs a test under many legal schedules instead of one, to find the races a single
  /// deterministic run hides: a response that lands after the cancel button, a second
  /// `withdraw` that interleaves at an actor's `await`.
  ///
  /// Each schedule is a deterministic run of the test in which the run picks the next job
  /// among those that may legally go next, by a seeded ``ExplorationStrategy``: main-actor jobs
  /// keep their order among themselves, and every other job (a task's next step, an actor's
  /// turn, a hop between actors) may go before or after any other. The first schedule that fails stops the
  /// exploration and fails the test with its seed, how many schedules passed before it, and
  /// the jobs it ran, in order; the seed replays exactly that schedule.
  ///
  /// ```swift
  /// @Test(.deterministicExecution(.exploring(schedules: 500)))
  /// func twoWithdrawalsNeverOverdraw() async {
  ///   let account = Account(balance: 100)
  ///   async let first: Void = account.withdraw(80)
  ///   async let second: Void = account.withdraw(80)
  ///   _ = await (first, second)
  ///   #expect(await account.balance >= 0)
  /// }
  /// ```
  ///
  /// Exploration needs Swift Testing: it reads each schedule's failures as issues. (Async
  /// XCTest methods are explored by linking `SchedulersSuiteExploration`: docs/field-trial.md.)
  ///
  /// > Note: The declarations are stable; the schedules are not. Which schedule a seed names,
  /// > the order in which a strategy tries schedules, and the text of the report may change in a
  /// > minor release before 1.0: a seed is sure to replay only with the version that printed it.
  public struct Exploration: Sendable, Equatable, CustomStringConvertible {
    /// How many schedules to run, at most.
    ///
    /// ```swift
    /// var exploration = DeterministicExecution.Exploration.exploring()
    /// exploration.schedules = 2_000
    /// ```
    ///
    /// - Precondition: greater than zero, checked when it is set.
    public var schedules: Int {
      get { checkedSchedules }
      set { checkedSchedules = Self.checked(schedules: newValue) }
    }
    /// How each schedule picks the next job.
    ///
    /// ```swift
    /// var exploration = DeterministicExecution.Exploration.exploring()
    /// exploration.strategy = .randomWalk
    /// ```
    ///
    /// - Precondition: a valid strategy (``ExplorationStrategy``), checked when it is set.
    public var strategy: ExplorationStrategy {
      get { checkedStrategy }
      set { checkedStrategy = newValue.checked() }
    }
    /// The seed of the first schedule; each schedule's seed follows from it. Fixed by default,
    /// so that an exploration runs the same schedules every time, as every test of this
    /// package does; `SCHEDULERS_EXPLORATION_SEED` (a number, decimal or `0x` hexadecimal)
    /// changes it for a run of the test process, to explore further.
    ///
    /// ```swift
    /// @Test(.deterministicExecution(.exploring(seed: 42)))
    /// func cancelNeverLeavesTheSpinnerOn() async { ... }
    /// ```
    public var seed: UInt64
    /// A seed that a failure report gave: only that schedule runs after the first-in first-out
    /// run (and, but for `.exhaustive`, schedule 1, which gives PCT its span), and the test fails
    /// with its failures. `SCHEDULERS_EXPLORATION_REPLAY` does the same for every exploring test
    /// of the process.
    ///
    /// ```swift
    /// @Test(.deterministicExecution(.exploring(strategy: .pct(depth: 3), replay: 0x3F2A_9C41_0B7E_D215)))
    /// func cancelNeverLeavesTheSpinnerOn() async { ... }
    /// ```
    public var replay: UInt64?
    /// How many jobs one schedule may run (``defaultMaxJobsPerSchedule``, 20,000) before the
    /// run stops it as a livelock, a finding of its own: a loop that waits by yielding can
    /// starve what it waits for in some order. The run then cancels the body, goes on first in,
    /// first out so that it can finish, and the schedule fails with a report that says so,
    /// with its seed. A test whose schedules run more jobs than that raises it:
    ///
    /// ```swift
    /// @Test(.deterministicExecution(.exploring(schedules: 100, maxJobsPerSchedule: 200_000)))
    /// func theWholeSyncNeverLosesAnEdit() async { ... }
    /// ```
    ///
    /// - Precondition: greater than zero, checked when it is set.
    public var maxJobsPerSchedule: Int {
      get { checkedMaxJobsPerSchedule }
      set { checkedMaxJobsPerSchedule = Self.checked(maxJobsPerSchedule: newValue) }
    }

    private var checkedSchedules: Int
    private var checkedStrategy: ExplorationStrategy
    private var checkedMaxJobsPerSchedule: Int

    /// The default of ``maxJobsPerSchedule``: far more than a test's schedule runs (the
    /// package's own exploring tests run at most a few hundred jobs a schedule), and few
    /// enough that a livelocked schedule ends within a fraction of a second.
    ///
    /// ```swift
    /// .exploring(maxJobsPerSchedule: 10 * DeterministicExecution.Exploration.defaultMaxJobsPerSchedule)
    /// ```
    public static let defaultMaxJobsPerSchedule = 20_000

    /// Explores `schedules` schedules with `strategy`.
    ///
    /// ```swift
    /// @Test(.deterministicExecution(.exploring(schedules: 1_000, strategy: .randomWalk)))
    /// func cancelNeverLeavesTheSpinnerOn() async { ... }
    /// ```
    ///
    /// Every value is checked here, when the exploration is made, not when a run starts: a
    /// precondition failure names the parameter and the value.
    ///
    /// - Precondition: `schedules` and `maxJobsPerSchedule` are greater than zero, and
    ///   `strategy` is valid (``ExplorationStrategy/pct(depth:)``'s depth at least 1,
    ///   ``ExplorationStrategy/exhaustive(preemptions:)``'s bound from 0 to 3).
    public static func exploring(
      schedules: Int = 500, strategy: ExplorationStrategy = .pct(depth: 3),
      seed: UInt64 = defaultSeed, replay: UInt64? = nil,
      maxJobsPerSchedule: Int = defaultMaxJobsPerSchedule
    ) -> Exploration {
      Exploration(
        checkedSchedules: checked(schedules: schedules), checkedStrategy: strategy.checked(),
        checkedMaxJobsPerSchedule: checked(maxJobsPerSchedule: maxJobsPerSchedule), seed: seed,
        replay: replay)
    }

    private init(
      checkedSchedules: Int, checkedStrategy: ExplorationStrategy, checkedMaxJobsPerSchedule: Int,
      seed: UInt64, replay: UInt64?
    ) {
      self.checkedSchedules = checkedSchedules
      self.checkedStrategy = checkedStrategy
      self.checkedMaxJobsPerSchedule = checkedMaxJobsPerSchedule
      self.seed = seed
      self.replay = replay
    }

    private static func checked(schedules: Int) -> Int {
      precondition(
        schedules > 0,
        "Exploration.exploring(schedules:) needs at least one schedule, got \(schedules)")
      return schedules
    }

    private static func checked(maxJobsPerSchedule: Int) -> Int {
      precondition(
        maxJobsPerSchedule > 0,
        "Exploration.exploring(maxJobsPerSchedule:) needs at least one job, got \(maxJobsPerSchedule)"
      )
      return maxJobsPerSchedule
    }

    /// The default first seed.
    ///
    /// ```swift
    /// .exploring(seed: DeterministicExecution.Exploration.defaultSeed &+ 1)
    /// ```
    public static let defaultSeed: UInt64 = 0x5EED_5EED_5EED_5EED

    public var description: String {
      var text = "exploring \(schedules) schedules, \(strategy)"
      if maxJobsPerSchedule != Self.defaultMaxJobsPerSchedule {
        text += ", at most \(maxJobsPerSchedule) jobs a schedule"
      }
      if let replay { text += ", replaying \(hexadecimal(replay))" }
      return text
    }
  }

  /// How an exploring run picks the next job among those that may legally go next.
  ///
  /// > Note: How a strategy picks, and so which schedule a seed names, may change in a minor
  /// > release before 1.0, as ``DeterministicExecution/Exploration`` says.
  public enum ExplorationStrategy: Sendable, Equatable, CustomStringConvertible {
    /// Uniformly at random at every choice.
    case randomWalk
    /// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010): each task or actor
    /// gets a random priority, the highest-priority one that can run does, and at `depth - 1`
    /// random steps the one running drops below all others. Finds a bug that needs `depth`
    /// ordering constraints with a probability bounded below, where a random walk's falls
    /// with the length of the test. Most real bugs have depth 1 or 2.
    ///
    /// - Precondition: `depth` is at least 1.
    case pct(depth: Int)
    /// Every schedule with at most `preemptions` choices out of first-in first-out order, each
    /// run once, fewest preemptions first: a proof, within that bound, that no such schedule
    /// fails (preemption bounding, after Musuvathi and Qadeer, PLDI 2007; loom bounds
    /// preemptions the same way). The exploration ends with a line on standard error that says how many there
    /// were, or with the first that fails and a seed that replays it. `schedules` still caps
    /// the runs: an exploration it stops says it is no proof. Orders are not pruned: the run
    /// knows no memory accesses, so any two jobs may depend on each other, and every order
    /// within the bound runs. Most bugs need 1 or 2; the count of schedules grows with the
    /// test's length to that power.
    ///
    /// ```swift
    /// @Test(.deterministicExecution(.exploring(schedules: 100_000, strategy: .exhaustive(preemptions: 2))))
    /// func twoWithdrawalsNeverOverdraw() async { ... }
    /// ```
    ///
    /// - Precondition: `preemptions` is from 0 to 3 (a failing schedule's seed holds up to three
    ///   choices).
    case exhaustive(preemptions: Int)

    public var description: String {
      switch self {
      case .randomWalk: "random walk"
      case .pct(let depth): "PCT, depth \(depth)"
      case .exhaustive(let preemptions): "every schedule up to \(preemptions) preemptions"
      }
    }

    /// The strategy itself, after a precondition that it is valid: an exploration checks its
    /// strategy when it is made, so that a bad bound fails where it is written.
    func checked() -> Self {
      switch self {
      case .randomWalk:
        break
      case .pct(let depth):
        precondition(
          depth >= 1, "ExplorationStrategy.pct(depth:) needs a depth of 1 or more, got \(depth)")
      case .exhaustive(let preemptions):
        precondition(
          (0...3).contains(preemptions),
          "ExplorationStrategy.exhaustive(preemptions:) takes 0 to 3 preemptions, got \(preemptions)"
        )
      }
      return self
    }

    /// How the strategy is written in Swift, for the replay line of a report.
    var spelling: String {
      switch self {
      case .randomWalk: ".randomWalk"
      case .pct(let depth): ".pct(depth: \(depth))"
      case .exhaustive(let preemptions): ".exhaustive(preemptions: \(preemptions))"
      }
    }
  }
}

/// `0x` and 16 hexadecimal digits.
package func hexadecimal(_ value: UInt64) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
}

extension DeterministicExecution.Exploration {
  /// The seed of schedule `index` (from zero) of an exploration that starts at `seed`.
  package func seed(ofSchedule index: Int) -> UInt64 {
    var generator = SplitMixSeeds(seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
    return generator.next()
  }

  /// How a replay is written in Swift, for a report.
  package func replaySpelling(_ seed: UInt64) -> String {
    ".exploring(strategy: \(strategy.spelling), replay: \(hexadecimal(seed)))"
  }
}

/// One step of SplitMix64, to spread consecutive schedule numbers over the seed space.
private struct SplitMixSeeds {
  var state: UInt64
  init(_ state: UInt64) { self.state = state }
  mutating func next() -> UInt64 {
    var z = state
    z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z &>> 31)
  }
}

// Exploring a test suite that was not written for it: every async test of the process, run
// under deterministic execution and explored, with no edit to the tests. Linking this module
// into a test executable does nothing until SCHEDULERS_EXPLORE_SUITE is set.
// Linux only, as both hooks are: elsewhere the module is empty.
#if os(Linux)
  import Schedulers
  import SchedulersTesting

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// What `SCHEDULERS_EXPLORE_SUITE` asks of the process: the exploration each async test runs
  /// under, or `nil` when it is unset (the tests run as they were written).
  ///
  /// `SCHEDULERS_EXPLORE_SUITE=100` runs each async test once first in, first out, then under 100
  /// schedules (PCT, depth 3), with auto-advancing virtual time, so that a plain `Task.sleep` of
  /// the test takes no real time. `SCHEDULERS_EXPLORATION_REPLAY`, `SCHEDULERS_EXPLORATION_SEED`
  /// and `SCHEDULERS_EXPLORATION_SHARD` apply as they do to any exploring test.
  enum SuiteExploration {
    static let variable = "SCHEDULERS_EXPLORE_SUITE"

    /// Read once: the hooks ask for every test the process discovers.
    static let exploration: DeterministicExecution.Exploration? = {
      guard let text = getenv(variable).map({ String(cString: $0) }), !text.isEmpty else {
        return nil
      }
      guard let schedules = Int(text), schedules > 0 else {
        preconditionFailure(
          "\(variable) takes a number of schedules greater than zero, as \(variable)=100; got \(text)"
        )
      }
      // A test of a suite not written for exploring may wait on a queue, a thread or a timer of
      // its own (a Dispatch callback 5 ms away), which the run cannot see: on a busy machine that
      // came later than the 100 ms a run waits before it believes a deadlock, reported in one
      // schedule of a hundred and not replayed by its seed. Waited for 2 s here.
      DeadlockGrace.duration = deadlockGrace
      return .exploring(schedules: schedules)
    }()

    /// How long a run that looks deadlocked waits, in real time, before it believes it.
    static let deadlockGrace: Duration = .seconds(2)

    /// The virtual time of every explored test: a test that sleeps, or waits with a timeout,
    /// goes on at once instead of waiting in real time.
    static let virtualTime = DeterministicExecution.VirtualTime.autoAdvance

    /// One line on standard error for each test the hooks explored, for a script to read: the
    /// test, how many schedules it ran, and how long that took. Whether the test passed is the
    /// test framework's own report.
    static func reportExplored(
      _ test: String, seconds: Double, _ exploration: DeterministicExecution.Exploration
    ) {
      TestFailure.writeToStandardError(
        "schedulers-suite-exploration: explored \(test): \(exploration), "
          + "\((seconds * 1000).rounded() / 1000) s\n")
    }

    /// The seconds since `start`, on the monotonic clock (not the run's virtual one).
    static func seconds(since start: ContinuousClock.Instant) -> Double {
      let elapsed = ContinuousClock.now - start
      return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
  }
#endif

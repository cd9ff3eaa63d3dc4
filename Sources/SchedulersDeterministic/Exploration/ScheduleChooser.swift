import Schedulers

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Picks the next job of one exploring run among those that may legally go next, by a seeded
/// strategy, and keeps the trace of what ran.
///
/// Legal: main-actor jobs keep their order among themselves (the main actor is one serial
/// executor), and any other job may go before or after any other (each is a task's next step
/// or an actor's turn, which the runtime may run in any order). So the candidates are every
/// queued job that is not a main-actor job, and the first queued main-actor job.
package final class ScheduleChooser: @unchecked Sendable {
  // `@unchecked Sendable`: used only by its run's driver, under the run's lock, one job at a
  // time; read by the exploration once the run has ended.

  /// A job as the trace shows it.
  package struct Step: Sendable {
    /// Which task or actor, numbered in the order the run first saw them.
    package var ordinal: Int
    /// What kind of job it was.
    package var kind: JobKind
    /// The task's name; for an actor's turn or a resumption, the task that asked for it.
    package var name: String?
    /// How many jobs could have gone instead (0: it was the only one).
    package var alternatives: Int
    /// Whether the strategy picked a job that first-in first-out order would not have.
    package var preempted: Bool
    /// The position of the chosen job among the candidates, first in, first out.
    package var chosenIndex: Int
  }

  /// `nil`: first in, first out (the order of an unexplored run), with the trace kept.
  let strategy: DeterministicExecution.ExplorationStrategy?
  private var random: SplitMix64
  /// The trace: every job the run ran, in order.
  package private(set) var steps: [Step] = []
  /// Ordinals by job identity (see ``identity(of:)``), in order of first sight.
  private var ordinals: [UInt: Int] = [:]
  /// How many ordinals were given out (one-shot jobs' are forgotten once they run).
  private var ordinalsGiven = 0
  /// Names by job identity: a task's own, seen when it enqueued itself (a hop, a yield); for
  /// other jobs, the named task that last asked for one.
  private var names: [UInt: String] = [:]
  /// PCT: the priority of each task or actor (by job identity); higher runs first.
  private var priorities: [UInt: Double] = [:]
  /// PCT: the steps, counted from the first real choice (from 1), at which the chosen task or
  /// actor drops below all others.
  private var changePoints: Set<Int> = []
  /// How many steps the run has taken since its first real choice (among two jobs or more),
  /// that one included.
  private var stepsSinceFirstChoice = 0
  /// The jobs that are a task's `Task.yield()` (its continuation, enqueued by the task itself)
  /// past its first `yieldsBeforeGoingLast`, not yet given a priority: PCT gives each the
  /// lowest priority yet, below every other job, as shuttle's PCT does with a yield, so a loop
  /// that waits by yielding lets what it waits for run instead of being chosen again and
  /// again. A task's first yields get a priority drawn like any job's: tests use a few yields
  /// as round trips, and the orders of those are the races exploring must find.
  private var yields: Set<UInt> = []
  /// How many times each task yielded, by its identity.
  private var yieldsByTask: [UInt: Int] = [:]
  /// How many yields of one task are explored like any job before its next ones go last: more
  /// than a test's round trips (the package's bug classes use up to eight), fewer than a
  /// polling loop makes before it starves what it waits for for long.
  package static let yieldsBeforeGoingLast = 32
  /// The priority the next yield gets: lower than every priority given so far.
  private var nextYieldPriority = -1.0
  /// Set once the run reached `maxJobs`: from then on it goes first in, first out, so that a
  /// body that was cancelled can finish.
  package private(set) var stoppedChoosing = false
  /// Whether the run's tasks take each hop between actors as a job of its own (`HopsAsJobs`),
  /// so that the schedule can put another job between a task's check on an actor and its act
  /// after awaiting one that answers at once: every exploring schedule but the first-in
  /// first-out one that comes before them, which takes the order of an unexplored run.
  package var hopsAreJobs = true
  /// How many jobs a schedule may run before the run stops it as a livelock
  /// (``DeterministicExecution/Exploration/maxJobsPerSchedule``).
  package var maxJobs = DeterministicExecution.Exploration.defaultMaxJobsPerSchedule

  /// A run that makes the choices of `script` (positions among the candidates, step by step),
  /// and first-in first-out ones past its end: to replay a schedule with some of its choices
  /// undone, when a failing schedule is shrunk.
  package init(script: [Int]) {
    self.strategy = nil
    self.script = script
    random = SplitMix64(seed: 0)
  }

  /// A schedule of the exhaustive strategy: the choices of `script`, each a position in the
  /// candidates as `continuesTheLastTask` orders them.
  package init(exhaustiveScript script: [Int]) {
    self.strategy = nil
    self.script = script
    continuesTheLastTask = true
    random = SplitMix64(seed: 0)
  }

  /// The exhaustive strategy's order of the candidates: first the job that goes on with the
  /// task whose job ran last (a task's own next step, or a job that task enqueued, such as its
  /// yield's continuation or its turn on an actor), then the others first in, first out. So
  /// choosing the first is not preempting the task that runs, and a schedule's preemptions are
  /// its choices of any other, as CHESS counts them; a task's run of steps costs none.
  private var continuesTheLastTask = false
  /// The task each queued job goes on with, by the job's address: a task's own job, that
  /// task; another job, the task that enqueued it (or whose job was running then). Kept only
  /// when `continuesTheLastTask`.
  private var taskOfJob: [UInt: UInt] = [:]
  /// The task the last chosen job went on with.
  private var lastTask: UInt?

  /// The choices to make, step by step, instead of a strategy's; `nil` for a strategy.
  private var script: [Int]?

  /// The seed that names a schedule of the exhaustive strategy: each choice out of first-in
  /// first-out order of `script` as 21 bits (the step, 15 bits, then the position among the
  /// candidates, 6 bits, never 0), the first in the lowest bits. `nil` when the script does
  /// not fit (more than three such choices, a step past 32,767, a position past 63).
  package static func seed(ofScript script: [Int]) -> UInt64? {
    var seed: UInt64 = 0
    var shift: UInt64 = 0
    for (step, choice) in script.enumerated() where choice != 0 {
      guard shift < 63, step < 1 << 15, choice < 1 << 6 else { return nil }
      seed |= (UInt64(step) << 6 | UInt64(choice)) << shift
      shift += 21
    }
    return seed
  }

  /// The script a seed of the exhaustive strategy names (see `seed(ofScript:)`).
  static func script(fromSeed seed: UInt64) -> [Int] {
    var script: [Int] = []
    var rest = seed
    while rest & 0x1F_FFFF != 0 {
      let group = Int(rest & 0x1F_FFFF)
      let step = group >> 6
      if script.count <= step { script += Array(repeating: 0, count: step + 1 - script.count) }
      script[step] = group & 0x3F
      rest >>= 21
    }
    return script
  }

  /// The choices this run made, step by step, as a script replays them.
  package var choices: [Int] { steps.map(\.chosenIndex) }

  /// A run of `strategy` from `seed`. `expectedSteps` is how many steps the run is likely to
  /// take from its first real choice on (``stepsFromFirstChoice`` of schedule 1, first in,
  /// first out with hops as jobs): PCT spreads its change points over them. Counted from the
  /// first choice, not from the first job: the jobs before it had nothing to choose from, and
  /// their number may vary from run to run (the body's task may hop once more at the start of
  /// one run than of another), which would move every change point and make the same seed
  /// choose differently.
  package init(
    strategy: DeterministicExecution.ExplorationStrategy?, seed: UInt64, expectedSteps: Int
  ) {
    self.strategy = strategy
    random = SplitMix64(seed: seed)
    if case .exhaustive(let preemptions) = strategy {
      continuesTheLastTask = true
      precondition(
        (0...3).contains(preemptions),
        "ExplorationStrategy.exhaustive(preemptions:) takes 0 to 3 preemptions, got \(preemptions)")
      // An exhaustive schedule's seed is its choices out of first-in first-out order.
      script = Self.script(fromSeed: seed)
    }
    if case .pct(let depth) = strategy {
      precondition(
        depth >= 1, "ExplorationStrategy.pct(depth:) needs a depth of 1 or more, got \(depth)")
      let span = max(expectedSteps, 1)
      while changePoints.count < min(depth - 1, span) {
        changePoints.insert(Int(random.next() % UInt64(span)) + 1)
      }
    }
  }

  /// Notes which task enqueued `job`, for the trace, and whether the job is that task's yield:
  /// a continuation the task enqueued for itself (`isWakeUp`: a sleep's wake-up that the task
  /// now running fires for another task, which is not).
  func noteEnqueue(_ job: UnownedJob, isWakeUp: Bool = false) {
    let address = unsafeBitCast(job, to: UInt.self)
    if continuesTheLastTask {
      let enqueuer = withUnsafeCurrentTask { $0.map { unsafeBitCast($0, to: UnownedJob.self) } }
      // Where no task is current (a hop being made, which enqueues the actor's turn), the job
      // was enqueued by the job running now, which goes on with `lastTask`.
      taskOfJob[address] =
        JobKind(job) == .task
        ? identity(of: job) : enqueuer.map(identity(of:)) ?? lastTask ?? identity(of: job)
    }
    if !isWakeUp, JobKind(job) == .resumption,
      let task = withUnsafeCurrentTask(body: { $0.map { unsafeBitCast($0, to: UInt.self) } })
    {
      let yielder = identity(of: unsafeBitCast(task, to: UnownedJob.self))
      yieldsByTask[yielder, default: 0] += 1
      if yieldsByTask[yielder]! > Self.yieldsBeforeGoingLast { yields.insert(address) }
    }
    guard let name = currentTaskName() else { return }
    if JobKind(job) == .task {
      let current = withUnsafeCurrentTask { $0.map { unsafeBitCast($0, to: UInt.self) } }
      guard current == address else { return }
    }
    names[identity(of: job)] = name
  }

  /// Chooses among `candidates`, the queue's legal next jobs in first-in first-out order;
  /// returns the position of the chosen one in `candidates`.
  func choose(among candidates: [UnownedJob]) -> Int {
    let addresses = candidates.map(identity(of:))
    for address in addresses where ordinals[address] == nil {
      ordinalsGiven += 1
      ordinals[address] = ordinalsGiven
      // Distinct with probability one, and above every lowered priority (below 1).
      let drawn = 1 + Double(random.next() >> 11) / Double(1 << 53)
      if yields.remove(address) != nil {
        priorities[address] = nextYieldPriority
        nextYieldPriority -= 1
      } else {
        priorities[address] = drawn
      }
    }
    // The candidates in the order a script's positions count: first in, first out, or, for
    // the exhaustive strategy, the task that ran last going on first.
    var order = Array(candidates.indices)
    if continuesTheLastTask {
      let tasks = candidates.map { job -> UInt in
        let address = unsafeBitCast(job, to: UInt.self)
        return taskOfJob[address] ?? identity(of: job)
      }
      if let lastTask, let going = tasks.firstIndex(of: lastTask), going != 0 {
        order.remove(at: going)
        order.insert(going, at: 0)
      }
    }
    let position: Int
    if candidates.count == 1 || stoppedChoosing {
      position = 0
    } else if let script {
      // A script's choice that no longer fits (the candidates changed) falls back to the first.
      let scripted = steps.count < script.count ? script[steps.count] : 0
      position = scripted < candidates.count ? scripted : 0
    } else {
      position = -1
    }
    let chosen: Int
    if position >= 0 {
      chosen = order[position]
    } else {
      switch strategy {
      case nil, .exhaustive:
        chosen = 0
      case .randomWalk:
        chosen = Int(random.next() % UInt64(candidates.count))
      case .pct:
        chosen = addresses.indices.max { priorities[addresses[$0]]! < priorities[addresses[$1]]! }!
      }
    }
    if stepsSinceFirstChoice > 0 || candidates.count > 1 {
      stepsSinceFirstChoice += 1
      let step = stepsSinceFirstChoice
      if changePoints.contains(step) {
        // Lowered in the order of the change points: a later one goes below an earlier one.
        priorities[addresses[chosen]] =
          Double(changePoints.count - changePoints.filter { $0 < step }.count) / 1_000
      }
    }
    let ran = Step(
      ordinal: ordinals[addresses[chosen]]!, kind: JobKind(candidates[chosen]),
      name: names[addresses[chosen]],
      alternatives: candidates.count - 1, preempted: chosen != order[0],
      chosenIndex: position >= 0 ? position : chosen)
    steps.append(ran)
    if continuesTheLastTask {
      let address = unsafeBitCast(candidates[chosen], to: UInt.self)
      lastTask = taskOfJob.removeValue(forKey: address) ?? identity(of: candidates[chosen])
    }
    ExplorationCrashReport.noteChosen(
      ordinal: ran.ordinal, kind: ran.kind, alternatives: ran.alternatives,
      preempted: ran.preempted)
    if ran.kind != .task && ran.kind != .actor {
      // A one-shot job (a yield's or a sleep's continuation) is freed once it has run: a later
      // job at the same address is another one.
      let address = addresses[chosen]
      ordinals[address] = nil
      priorities[address] = nil
      names[address] = nil
    }
    return chosen
  }

  /// Whether this run ran the jobs `other` ran, in the same order: the same tasks and actors
  /// (by the order the runs first saw them), of the same kinds, chosen among as many.
  package func ranTheSameJobs(as other: ScheduleChooser) -> Bool {
    steps.count == other.steps.count
      && zip(steps, other.steps).allSatisfy {
        $0.ordinal == $1.ordinal && $0.kind == $1.kind && $0.alternatives == $1.alternatives
          && $0.chosenIndex == $1.chosenIndex
      }
  }

  /// Where this run first took other jobs than `found` did, as a report says it: the job at
  /// which the runnable jobs (or the one chosen among them) differed, or where one run ended
  /// while the other went on. `nil` when both ran the same jobs. What differs there is what the
  /// run does not control: real time read by the body, a Dispatch callback, a random number,
  /// state kept from one run to the next.
  package func describeFirstDifference(from found: ScheduleChooser) -> String? {
    let common = min(steps.count, found.steps.count)
    func candidates(_ step: Step) -> String {
      step.alternatives == 0
        ? "the only job that could run"
        : "chosen among \(step.alternatives + 1) that could run"
    }
    for index in 0..<common {
      let (was, now) = (found.steps[index], steps[index])
      guard
        was.ordinal != now.ordinal || was.kind != now.kind
          || was.alternatives != now.alternatives || was.chosenIndex != now.chosenIndex
      else { continue }
      return """
        The first difference is at job \(index + 1) of the trace: the schedule as found ran \
        \(found.label(was)), \(candidates(was)); the replay ran \(label(now)), \(candidates(now)).
        """
    }
    guard steps.count != found.steps.count else { return nil }
    return steps.count < found.steps.count
      ? "The replay ran the same \(common) jobs, then ended where the schedule as found ran \(found.steps.count - common) more."
      : "The replay ran the same \(common) jobs as the schedule as found, then \(steps.count - common) more."
  }

  /// Goes first in, first out from now on (the run reached `maxJobs`).
  func stopChoosing() { stoppedChoosing = true }

  /// Who a job stands for, the same in every run of the same schedule: a task by its id (the
  /// runtime numbers tasks and never reuses a number), an actor's turn that the runtime
  /// allocated apart by its actor, any other job by its address. Not a task by its address: a
  /// task's memory is freed when it ends, and whether the allocator gives it to the next task
  /// depends on what other threads allocate meanwhile, so a new task would inherit an ended
  /// one's ordinal and priority in some runs and not in others, and the same seed would choose
  /// differently. Likewise a turn allocated apart is freed once it has run.
  private func identity(of job: UnownedJob) -> UInt {
    let header = unsafeBitCast(job, to: UnsafeRawPointer.self)
    let fields = TaskHeader(header)
    switch fields.kind {
    case 0:
      let id = fields.id
      guard id != 0 else { return UInt(bitPattern: header) }
      // Tagged in the top bit, which no user-space address has.
      return UInt(id) | (1 << (UInt.bitWidth - 1))
    case 193:
      // A default actor's turn allocated apart: by its actor. (A turn kept inside the actor,
      // kind 192, has the actor's address already, give or take an offset.)
      return fields.actorOfTurnAllocatedApart ?? UInt(bitPattern: header)
    default:
      return UInt(bitPattern: header)
    }
  }

  /// How many steps the run took from its first real choice (among two legal jobs or more)
  /// on, that one included.
  package var stepsFromFirstChoice: Int {
    steps.firstIndex { $0.alternatives > 0 }.map { steps.count - $0 } ?? 0
  }

  /// A step as the trace names it: "task", "actor" or "a yield or wake-up", the number of the
  /// task or actor, and the name of the task where it has one.
  private func label(_ step: Step) -> String {
    switch step.kind {
    case .task:
      return "task \(step.ordinal)" + (step.name.map { " “\($0)”" } ?? "")
    case .actor:
      return "actor \(step.ordinal)" + (step.name.map { ", for “\($0)”" } ?? "")
    case .resumption:
      return "a yield or wake-up" + (step.name.map { " of “\($0)”" } ?? "")
    case .other:
      return "job \(step.ordinal)"
    }
  }

  /// The trace as a person reads it: each job that ran, numbered, naming its task (by
  /// `Task(name:)` where one was given, by number always). At most `limit` lines: the ones around the
  /// choices that were not first-in first-out.
  package func describeTrace(limit: Int = 40) -> String {
    var lines: [String] = []
    var keep = Set<Int>()
    for (index, step) in steps.enumerated() where step.preempted {
      for neighbour in max(0, index - 2)...min(steps.count - 1, index + 1) {
        keep.insert(neighbour)
      }
    }
    if keep.isEmpty { keep = Set(max(0, steps.count - limit)..<steps.count) }
    var last = -1
    for index in keep.sorted().suffix(limit) {
      if index != last + 1 { lines.append("    …") }
      let step = steps[index]
      var line = "    \(index + 1). " + label(step)
      if step.preempted {
        line +=
          "  ◀ chosen over \(step.alternatives) other\(step.alternatives == 1 ? "" : "s") that could run"
      }
      lines.append(line)
      last = index
    }
    if last != steps.count - 1 { lines.append("    …") }
    let preemptions = steps.filter(\.preempted).count
    return "\(steps.count) jobs, \(preemptions) of them chosen out of first-in first-out order:\n"
      + lines.joined(separator: "\n")
  }
}

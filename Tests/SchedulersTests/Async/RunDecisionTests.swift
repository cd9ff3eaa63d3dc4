import SchedulersDeterministic
import Testing

/// The run's policy, row by row: each phase of a run (the body running, cancelled for a
/// livelock, finished and settling, stopped settling; on the main-queue backend or not) against
/// each event the driver can meet (a job arrives, the body ends, the clock has work, a waiter
/// waits, outside work is pending, nothing can run, a bound is reached), and the step it takes.
@Suite("What a run does next")
struct RunDecisionTests {
  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var situation: RunSituation
    var expected: RunDecision
    var testDescription: String { name }
    init(_ name: String, _ expected: RunDecision, _ change: (inout RunSituation) -> Void) {
      var situation = RunSituation()
      change(&situation)
      (self.name, self.situation, self.expected) = (name, situation, expected)
    }
  }

  static let rows: [Row] = [
    // The body running.
    Row("a job is queued: run it", .run(Untaken())) { $0.queuedJobs = 1 },
    Row("a job and a waiter: the job first", .run(Untaken())) {
      $0.queuedJobs = 1
      $0.idleWaiters = true
    },
    Row("idle, a waiter: tell it", .resumeIdleWaiter(Untaken())) { $0.idleWaiters = true },
    Row(
      "idle, a cancelled sleep and a waiter: the sleep leaves first",
      .dropCancelledSleeps(Untaken())
    ) {
      $0.cancelledSleepsPending = true
      $0.idleWaiters = true
    },
    Row("idle, outside work pending: wait for it", .waitForOutsideWork) { $0.outsideWork = true },
    Row("idle, outside work and a due action: outside work first", .waitForOutsideWork) {
      $0.outsideWork = true
      $0.autoAdvanceMayStep = true
    },
    Row("idle, an auto-advancing clock with work: advance", .autoAdvance) {
      $0.autoAdvanceMayStep = true
    },
    Row("nothing can run: suspect a deadlock", .suspectDeadlock(bodyCancelledBefore: false)) {
      _ in
    },
    Row(
      "nothing can run, the body cancelled before: suspect it again, saying so",
      .suspectDeadlock(bodyCancelledBefore: true)
    ) { $0.bodyCancelled = true },
    Row("a waiter before virtual time moves", .resumeIdleWaiter(Untaken())) {
      $0.idleWaiters = true
      $0.autoAdvanceMayStep = true
    },
    // The body finished.
    Row("finished, a job queued: let the tasks settle", .run(Untaken())) {
      $0.bodyFinished = true
      $0.queuedJobs = 1
    },
    Row("finished, nothing runnable: end", .finish) { $0.bodyFinished = true },
    Row("finished, outside work pending: end anyway", .finish) {
      $0.bodyFinished = true
      $0.outsideWork = true
    },
    Row("finished, a waiter: tell it before ending", .resumeIdleWaiter(Untaken())) {
      $0.bodyFinished = true
      $0.idleWaiters = true
    },
    Row("finished, the settling bound due: stop settling", .stopSettling(stillQueued: 3)) {
      $0.bodyFinished = true
      $0.queuedJobs = 3
      $0.settlingBoundDue = true
    },
    Row(
      "main queue: the settling bound due, stop settling before the turns",
      .stopSettling(stillQueued: 2)
    ) {
      $0.bodyFinished = true
      $0.turnsOnTheMainQueue = true
      $0.queuedJobs = 2
      $0.settlingBoundDue = true
    },
    // A waiter for idleness, kept waiting through its bound by tasks that never stop.
    Row(
      "the idle wait's bound due, a job queued: tell the waiter", .stopWaitingForIdle(Untaken())
    ) {
      $0.idleWaitBoundDue = true
      $0.idleWaiters = true
      $0.queuedJobs = 1
    },
    Row(
      "the idle wait's bound before the main queue's turns", .stopWaitingForIdle(Untaken())
    ) {
      $0.idleWaitBoundDue = true
      $0.idleWaiters = true
      $0.turnsOnTheMainQueue = true
      $0.queuedJobs = 1
    },
    Row("the idle wait's bound before the settling bound", .stopWaitingForIdle(Untaken())) {
      $0.bodyFinished = true
      $0.settlingBoundDue = true
      $0.queuedJobs = 1
      $0.idleWaitBoundDue = true
      $0.idleWaiters = true
    },
    // Exploring, and its bound.
    Row("the bound reached: a livelock", .stopLivelock(jobs: 500)) {
      $0.exploringBound = .reached(jobs: 500)
      $0.queuedJobs = 1
    },
    Row(
      "the bound reached again: give up on the body",
      .giveUpAfterLivelock(jobsSinceLivelock: 500)
    ) {
      $0.exploringBound = .reachedAgain(jobsSinceLivelock: 500)
      $0.queuedJobs = 1
    },
    Row("the bound before the settling", .stopLivelock(jobs: 500)) {
      $0.exploringBound = .reached(jobs: 500)
      $0.bodyFinished = true
      $0.settlingBoundDue = true
      $0.queuedJobs = 1
    },
    Row("the exploring bound before the idle wait's", .stopLivelock(jobs: 500)) {
      $0.exploringBound = .reached(jobs: 500)
      $0.idleWaitBoundDue = true
      $0.idleWaiters = true
    },
    // The main-queue backend: the run's jobs go in turns on the main queue.
    Row("main queue: a job queued, take turns", .turns) {
      $0.turnsOnTheMainQueue = true
      $0.queuedJobs = 1
    },
    Row("main queue: nothing queued, not yet settled, take turns", .turns) {
      $0.turnsOnTheMainQueue = true
      $0.mainQueueSettled = false
    },
    Row("main queue: settled and idle, a waiter: tell it", .resumeIdleWaiter(Untaken())) {
      $0.turnsOnTheMainQueue = true
      $0.idleWaiters = true
    },
    Row(
      "main queue: settled, nothing can run: suspect a deadlock",
      .suspectDeadlock(bodyCancelledBefore: false)
    ) {
      $0.turnsOnTheMainQueue = true
    },
  ]

  @Test(arguments: rows)
  func theRowsStep(_ row: Row) {
    #expect(RunDecision.next(in: row.situation) == row.expected)
  }

  /// Every decision is some row's answer: no step of the policy goes untested. The switch
  /// is exhaustive, so a new step does not compile until it is named here.
  @Test func everyDecisionHasARow() {
    func kind(_ decision: RunDecision) -> String {
      switch decision {
      case .stopLivelock: "stopLivelock"
      case .giveUpAfterLivelock: "giveUpAfterLivelock"
      case .stopWaitingForIdle: "stopWaitingForIdle"
      case .stopSettling: "stopSettling"
      case .turns: "turns"
      case .run: "run"
      case .dropCancelledSleeps: "dropCancelledSleeps"
      case .resumeIdleWaiter: "resumeIdleWaiter"
      case .finish: "finish"
      case .waitForOutsideWork: "waitForOutsideWork"
      case .autoAdvance: "autoAdvance"
      case .suspectDeadlock: "suspectDeadlock"
      }
    }
    let answered = Set(Self.rows.map { kind($0.expected) })
    #expect(answered.count == 12, "\(answered.sorted())")
  }
}

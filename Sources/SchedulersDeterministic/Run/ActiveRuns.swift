import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The deterministic run in progress (one at a time: `RunGate`), and how a job comes to it.
///
/// The run in progress takes every job of the process that may be its test's, as if its test
/// were the only code running: the main-queue backend cannot tell its own main-actor tasks from
/// others', and an actor tests share runs one test's task inside another's job. Of the jobs it
/// takes, some are its own, which count as the run's progress and whose tasks' dropped errors
/// it reports. A job is the run's own when, in this order:
/// 1. a task of the run enqueues it (the task-local `DeterministicRun.current`): a task it
///    creates, a continuation it resumes, an actor it calls;
/// 2. no task is current and the thread is running one of the run's own jobs
///    (`runningOwnJob`): a hop back from an actor, an actor's next turn, a continuation resumed
///    by synchronous code;
/// 3. it is a task (or an actor) the run enqueued before (by address, and the task's id, since
///    a task that has ended frees its address for the next one): a task resumed from a
///    Dispatch callback or another test's task.
/// Of the others, the run leaves to the platform's executors the jobs of tasks it knows to be
/// another test's: a task made before the run began (the runtime numbers tasks in the order it
/// makes them) that the run has not noted, and the tasks such a task makes (child tasks and
/// unstructured ones). Their next steps, yields and new tasks, and their wake-ups where no task is
/// current (a Dispatch callback, a child task's end), stay on the cooperative pool; only an actor's
/// turn they enqueue is taken, since it may hold a job of the run. Taking them all made them wait
/// for one thread, the run's, while the pool's others had nothing to run. A task made during the
/// run that no rule names is taken, and so is what it enqueues: one started from a Dispatch
/// callback may be the test's, and a plain sleep wakes its sleeper from a task of the runtime's
/// that carries no task-local. What is taken and not its own is not the run's progress, and an
/// exploring run never reorders it.
enum ActiveRuns {
  private struct State {
    /// The run in progress: it takes every job that may be its test's.
    var takingEveryJob: DeterministicRun?
    /// The run each task seen so far belongs to, by the task's address (rule 3).
    var owners: [UInt: Owner] = [:]
    /// The addresses each run noted, so that its end removes them without a look at others'.
    var addressesByRun: [ObjectIdentifier: [UInt]] = [:]
    /// The id of the body's task of the run in progress; `nil` until it is made.
    var bodysTaskID: UInt32?

    /// Whether the task numbered `id` was made before the run in progress (every task is,
    /// until the body's is made): it is then not one that the run's test started from a
    /// Dispatch callback. The runtime numbers tasks in the order it makes them (the probe
    /// checks it), wrapping around after 2^32.
    func madeBeforeTheRun(_ id: UInt32) -> Bool {
      guard let bodysTaskID else { return true }
      let distance = bodysTaskID &- id
      return distance != 0 && distance < 1 << 31
    }

    /// Notes the job or task at `address` as its run's, or as taken by it, or as of no run.
    mutating func note(_ address: UInt, _ owner: Owner) {
      if owners.updateValue(owner, forKey: address)?.run !== owner.run {
        addressesByRun[ObjectIdentifier(owner.run), default: []].append(address)
      }
    }
  }
  /// What a noted task is to the run that noted it.
  private enum Standing {
    /// The run's own (rules 1 to 3).
    case own
    /// Taken: a task started or resumed where no task was current, from a Dispatch callback
    /// (it may be the test's), so what it enqueues later is taken too.
    case taken
    /// Of no run: a task of another test, whose jobs the run leaves to the platform's executors.
    case noRuns
  }
  /// Who a task's address belongs to, and which task it was: the runtime numbers tasks and
  /// never gives a number twice, while the allocator gives an ended task's address to the next.
  private struct Owner {
    let run: DeterministicRun
    /// The id of the task at the address when it was noted; `nil` for a job that is not a task.
    let taskID: UInt32?
    var standing = Standing.own

    /// Whether `job`, at the noted address, is still the job that was noted there.
    func isStill(_ job: UnsafeRawPointer) -> Bool {
      let header = TaskHeader(job)
      guard let taskID else { return !header.isTask }
      return header.isTask && header.id == taskID
    }
  }
  private static let state = Mutex(State())
  /// How many runs are in progress: read without the lock, so that a job enqueued while none
  /// is (most of a process's life) takes none; changed only under it.
  private static let count = Atomic<Int>(0)

  /// Starts routing `run`'s jobs to it; the first run in progress starts the router's routing.
  static func begin(_ run: DeterministicRun) {
    state.withLock { state in
      let nonePrevious = count.load(ordering: .relaxed) == 0
      precondition(nonePrevious, "Deterministic execution: a run began beside another")
      run.router.beginRouting()
      state.takingEveryJob = run
      state.bodysTaskID = nil
      run.isActive.store(true, ordering: .releasing)
      count.add(1, ordering: .relaxed)
    }
  }

  /// Stops routing jobs to `run` (those it still holds are handed back by the run); the last
  /// run to end stops the router's routing.
  static func end(_ run: DeterministicRun) {
    state.withLock { state in
      run.isActive.store(false, ordering: .releasing)
      if state.takingEveryJob === run { state.takingEveryJob = nil }
      for address in state.addressesByRun.removeValue(forKey: ObjectIdentifier(run)) ?? []
      where state.owners[address]?.run === run {
        state.owners[address] = nil
      }
      if count.subtract(1, ordering: .relaxed).newValue == 0 { run.router.endRouting() }
    }
  }

  /// Records that the task at `address` belongs to `run` (rule 3), or the actor. A one-shot
  /// job (a yield's or a sleep's continuation) is not recorded: it is enqueued once, here, and
  /// freed once it has run, when the allocator gives its address to the next such job, which
  /// may be another test's (a poller's yields were all taken for the run's own).
  static func noteTask(_ address: UInt, of run: DeterministicRun) {
    guard let job = UnsafeRawPointer(bitPattern: address) else { return }
    switch JobKind(unsafeBitCast(job, to: UnownedJob.self)) {
    case .task, .actor: break
    case .resumption, .other: return
    }
    let header = TaskHeader(job)
    let owner = Owner(run: run, taskID: header.isTask ? header.id : nil)
    state.withLock { state in state.note(address, owner) }
  }

  /// Notes the body's task, made once `run` has begun: the tasks numbered below it were made
  /// before the run. The run keeps its id too, so that a report can point the task out.
  static func noteBodysTask(_ task: Task<Void, Never>, of run: DeterministicRun) {
    let id = RuntimeABI.id(of: task)
    run.bodysTaskID.store(id, ordering: .relaxed)
    state.withLock { state in
      if state.takingEveryJob === run { state.bodysTaskID = id }
    }
  }

  /// The run a job enqueued now goes to, and whether it is that run's own (by the rules
  /// above); `nil` when no run in progress takes it.
  static func owner(of job: UnownedJob) -> (run: DeterministicRun, isItsOwn: Bool)? {
    guard count.load(ordering: .relaxed) > 0 else { return nil }
    // Rule 2 only where no task is current: a task of no run that the run runs anyway (one
    // misrouted by rule 3, its address a reused one) would otherwise take every task it
    // creates into the run with it.
    let currentTask = taskOtherThanTheDrivingCaller()
    if currentTask != nil, let run = DeterministicRun.current,
      run.isActive.load(ordering: .acquiring)
    {
      return (run, true)
    }
    if currentTask == nil, let run = threadsRun(), run.isActive.load(ordering: .acquiring) {
      return (run, true)
    }
    let address = unsafeBitCast(job, to: UInt.self)
    let pointer = unsafeBitCast(job, to: UnsafeRawPointer.self)
    // Without the header's layout (`RuntimeABI`), which jobs are tasks is unknown: every job is
    // taken.
    let headerIsKnown = RuntimeABI.headerIsKnown
    let kind = JobKind(job)
    return state.withLock { state in
      if let owner = state.owners[address] {
        if owner.isStill(pointer) {
          switch owner.standing {
          case .own: return (owner.run, true)
          case .taken: return (owner.run, false)
          case .noRuns: return nil
          }
        }
        // Another task at an ended task's address: not the run's for that.
        state.owners[address] = nil
      }
      guard let run = state.takingEveryJob else { return nil }
      guard headerIsKnown else { return (run, false) }
      // A task made before the run began that the run has not noted is another test's,
      // whoever wakes it (a Dispatch callback, a child task's end, a plain sleep's wake-up).
      if kind == .task, state.madeBeforeTheRun(TaskHeader(pointer).id) { return nil }
      if let currentTask, let current = UnsafeRawPointer(bitPattern: currentTask) {
        // A task of no run enqueues: one made before the run and not noted by it (another
        // test's), or a task such a task made. What it enqueues is the platform's, unless the
        // job is an actor's turn, and a task it makes is of no run too: a child task, and an
        // unstructured one (`Task {}`, `Task.detached`). Another test's task that starts while
        // this run is in progress (Swift Testing starts tests as others end, at a bounded
        // width) may make one; left unnoted, it was "made during the run", so what it enqueued
        // where no task was current was taken, and its child tasks with it: a task that kept
        // making them kept the run's queue from ever emptying.
        var standing = state.owners[currentTask].flatMap {
          $0.run === run && $0.isStill(current) ? $0.standing : nil
        }
        if standing == nil, state.madeBeforeTheRun(TaskHeader(current).id) {
          state.note(
            currentTask, Owner(run: run, taskID: TaskHeader(current).id, standing: .noRuns))
          standing = .noRuns
        }
        guard standing == .noRuns else { return (run, false) }
        // A task made during the run that no run has noted: one this task makes now (every
        // task the run takes or owns is noted when first enqueued).
        if kind == .task {
          state.note(address, Owner(run: run, taskID: TaskHeader(pointer).id, standing: .noRuns))
        }
        return kind == .actor ? (run, false) : nil
      }
      // No task is current, and the task was made during the run: it may be the test's,
      // started from a Dispatch callback. Taken, with what it enqueues later.
      if kind == .task {
        state.note(address, Owner(run: run, taskID: TaskHeader(pointer).id, standing: .taken))
      }
      return (run, false)
    }
  }

  /// The run whose own task enqueues now, while that run is in progress: where a plain sleep of
  /// that task goes (on the run's virtual clock); `nil` for every other task.
  static var runOfCurrentTask: DeterministicRun? {
    guard count.load(ordering: .relaxed) > 0, let run = DeterministicRun.current,
      run.isActive.load(ordering: .acquiring)
    else { return nil }
    return run
  }

  /// Runs one of `run`'s own jobs (`body`) with the calling thread marked as running `run`'s
  /// own jobs (rule 2).
  ///
  /// What the job enqueues where no task is current is then the run's own: above all the turn
  /// of a default actor that a task of the run has just queued itself on (the runtime schedules
  /// the actor once the task is off the thread). Without the mark such a turn was only taken,
  /// and once the body had finished, taken jobs go to the platform's executors: a task the body
  /// left behind ran its actor calls outside the run, unseen (its dropped error too).
  /// The jobs of unrelated tests that the run takes run unmarked, so that theirs stay taken.
  static func runningOwnJob<R>(of run: DeterministicRun, _ body: () throws -> R) rethrows -> R {
    let previous = pthread_getspecific(threadsRunKey)
    pthread_setspecific(threadsRunKey, Unmanaged.passUnretained(run).toOpaque())
    defer { pthread_setspecific(threadsRunKey, previous) }
    return try body()
  }

  // MARK: The threads of a run

  /// Runs `body`, a run's driving (`DeterministicRun.drive`, `driveInPlace`) or what the
  /// main queue does for it while the driver waits (a job, a turn, an auto-advance step), with
  /// the calling thread marked as the run's (`threadIsARunsNow`).
  static func drivingARun<R>(_ body: () throws -> R) rethrows -> R {
    let previous = pthread_getspecific(drivingKey)
    pthread_setspecific(drivingKey, UnsafeRawPointer(bitPattern: 1))
    defer { pthread_setspecific(drivingKey, previous) }
    return try body()
  }

  /// Whether the calling thread is a run's now: it drives a run (`drivingARun`), or runs one of
  /// a run's own jobs (`runningOwnJob`). For the crash report's signal handler: two reads of
  /// thread-specific slots, which take no lock and allocate nothing, once
  /// `prepareThreadMarks()` has made the keys.
  static func threadIsARunsNow() -> Bool {
    pthread_getspecific(threadsRunKey) != nil || pthread_getspecific(drivingKey) != nil
  }

  /// Makes the keys of the threads' marks, so that a signal handler reading them runs no
  /// initializer.
  static func prepareThreadMarks() {
    _ = threadsRunKey
    _ = drivingKey
  }

  // MARK: A run driven on its caller's thread

  /// Runs `body`, a run's driving on the thread of the task that awaits the run
  /// (`DeterministicRun.driveInPlace`), with that task marked as the driving caller: between
  /// jobs it is current on the thread, yet it takes no part in the run, so a job enqueued then
  /// counts as enqueued where no task is current, as it does on a driver thread.
  static func drivingInPlace<R>(_ body: () throws -> R) rethrows -> R {
    let caller = withUnsafeCurrentTask { $0.map { unsafeBitCast($0, to: UInt.self) } } ?? 0
    let previous = pthread_getspecific(drivingCallerKey)
    pthread_setspecific(drivingCallerKey, UnsafeRawPointer(bitPattern: caller))
    defer { pthread_setspecific(drivingCallerKey, previous) }
    return try body()
  }

  /// The address of the current task, unless none is or it is the caller driving its run on
  /// this thread between jobs (a job of the run that runs in place makes its own task current).
  private static func taskOtherThanTheDrivingCaller() -> UInt? {
    withUnsafeCurrentTask { task in
      guard let task else { return nil }
      let address = unsafeBitCast(task, to: UInt.self)
      guard let caller = pthread_getspecific(drivingCallerKey) else { return address }
      return UInt(bitPattern: caller) != address ? address : nil
    }
  }

  private static func threadsRun() -> DeterministicRun? {
    guard let pointer = pthread_getspecific(threadsRunKey) else { return nil }
    return Unmanaged<DeterministicRun>.fromOpaque(pointer).takeUnretainedValue()
  }
}

/// The thread-specific slot of `ActiveRuns.runningOwnJob`: unretained, since the run outlives
/// every block that sets it.
private let threadsRunKey: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key, nil)
  precondition(status == 0, "Deterministic execution: could not create a thread key (\(status))")
  return key
}()

/// The thread-specific slot of `ActiveRuns.drivingARun`: non-null while the thread drives a run.
private let drivingKey: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key, nil)
  precondition(status == 0, "Deterministic execution: could not create a thread key (\(status))")
  return key
}()

/// The thread-specific slot of `ActiveRuns.drivingInPlace`: the address of the task driving its
/// run on this thread.
private let drivingCallerKey: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key, nil)
  precondition(status == 0, "Deterministic execution: could not create a thread key (\(status))")
  return key
}()

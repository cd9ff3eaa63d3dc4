// The runtime-hooks backend: the hook variables of `libswift_Concurrency`, plain C globals that
// every Swift runtime since 5.5 exports, found with `dlsym` so that this compiles with every
// toolchain. The repository's docs/deterministic-execution.md says what each does on which runtime.
//
// - `swift_task_enqueueGlobal_hook` receives every job for the global executor;
// - `swift_task_getMainExecutor_hook` makes the main actor's executor a serial executor of
//   ours while a run routes (the main-executor enqueue hook is never called:
//   swiftlang/swift issue 63104), which forwards to the platform's main executor a job that
//   belongs to no run in progress;
// - the delay and deadline hooks receive plain `Task.sleep`s, on runtimes before 6.3.
//
// The hooks are process-wide and other libraries set them too (swift-concurrency-extras'
// `withMainSerialExecutor` sets the first): the first run in progress installs them, every job
// that belongs to no run goes on to what was there before, and the last run to end restores it.

import Dispatch
import Schedulers
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

#if !os(WASI) && !os(Windows)
  // The hooks' types, as the runtime declares them (include/swift/Runtime/ConcurrencyHooks.def):
  // Swift calling convention, no context, the original implementation as the last argument.
  typealias EnqueueGlobalOriginal = @convention(thin) (UnownedJob) -> Void
  typealias EnqueueGlobalHook = @convention(thin) (UnownedJob, EnqueueGlobalOriginal) -> Void
  typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
  typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
  typealias DeadlineOriginal =
    @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
  typealias DeadlineHook =
    @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void
  typealias GetMainExecutorOriginal = @convention(thin) () -> UnownedSerialExecutor
  typealias GetMainExecutorHook =
    @convention(thin) (GetMainExecutorOriginal) -> UnownedSerialExecutor
  typealias GetTime =
    @convention(thin) (UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, Int32) -> Void

  /// Routes jobs by setting the runtime's hook variables for the length of each run.
  ///
  /// Two modes. With the main executor's hook (the Swift 6.2 runtime on: the 26.0 generation
  /// of Apple platforms, and Linux), main-actor jobs come to the run too, and the run's driver
  /// runs every job. Without it (the Swift 6.0 and 6.1 runtimes: Apple's 18 to 25 generations),
  /// only the global executor's jobs come to the run; main-actor jobs stay on the main queue,
  /// and the run drives its own jobs in turns on the main queue, so that both kinds still run
  /// one at a time in an order that does not depend on timing (`DeterministicRun+MainQueueTurns.swift`).
  ///
  /// Runtime task executors (`runSynchronously(on:)` with a task executor, which keeps
  /// `Task.yield()` in the run) need the macOS 15 generation: below it, no mode works.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  final class RuntimeHookRouter: JobRouter, @unchecked Sendable {
    // `@unchecked Sendable`: the pointers are the runtime's global variables, written only
    // under `ActiveRuns`' lock (as the first run begins and the last ends) and read by the
    // runtime from any thread,
    // as every user of these hooks does; `previous` is behind a lock.

    /// Why the hooks cannot route here, when `make(routingMainActor:)` finds them missing.
    static func unavailableReason(routingMainActor: Bool) -> String {
      if processSymbol("swift_task_enqueueGlobal_hook") == nil {
        return "the concurrency runtime's hook variables were not found (dlsym)"
      }
      if routingMainActor {
        // The main executor's hook arrived with the Swift 6.2 runtime (the 26.0 generation of
        // Apple platforms).
        return """
          this concurrency runtime has no swift_task_getMainExecutor_hook (it arrived with the \
          Swift 6.2 runtime, the 26.0 generation of Apple platforms), so main-actor jobs \
          cannot be routed
          """
      }
      return "the concurrency runtime lacks a hook the run needs (dlsym)"
    }

    /// Whether this runtime sends a plain `Task.sleep` through the delay and deadline hooks:
    /// before the Swift 6.3 runtime it does; from 6.3 on, `Task.sleep` goes to the current
    /// scheduling executor instead (stdlib `TaskSleep.swift`; docs/deterministic-execution.md
    /// has the evidence). On Linux the runtime comes with the toolchain.
    static let runtimeCallsDelayHooks: Bool = {
      #if canImport(Darwin)
        if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
          return false
        }
        return true
      #elseif compiler(>=6.3)
        return false
      #else
        return true
      #endif
    }()

    struct Hooks {
      var enqueueGlobal: EnqueueGlobalHook?
      var delay: DelayHook?
      var deadline: DeadlineHook?
      var getMainExecutor: GetMainExecutorHook?
    }

    private let enqueueGlobalVariable: UnsafeMutablePointer<EnqueueGlobalHook?>
    private let delayVariable: UnsafeMutablePointer<DelayHook?>
    private let deadlineVariable: UnsafeMutablePointer<DeadlineHook?>
    /// `nil` in the mode without the main executor's hook.
    private let getMainExecutorVariable: UnsafeMutablePointer<GetMainExecutorHook?>?
    /// The runtime's `swift_task_enqueueGlobal`, which consults whatever hook is set now.
    let enqueueGlobal: EnqueueGlobalOriginal
    /// The runtime's clock, for the deadlines the deadline hook receives.
    let getTime: GetTime?
    /// What the hooks held before the current run set them: its jobs are theirs.
    let previous = Mutex(Hooks())

    /// Whether main-actor jobs come to the run (through the main executor's hook), or stay on
    /// the main queue (see the type's documentation).
    let routesMainActor: Bool

    /// The process's router, once its hooks are found; `nil` where they are not.
    /// `routingMainActor` asks for the mode with the main executor's hook.
    static func make(routingMainActor: Bool) -> RuntimeHookRouter? {
      func find<T>(_ name: String, as type: T.Type) -> UnsafeMutablePointer<T?>? {
        processSymbol(name)?.assumingMemoryBound(to: T?.self)
      }
      func function<T>(_ name: String, as type: T.Type) -> T? {
        processSymbol(name).map { unsafeBitCast($0, to: type) }
      }
      guard
        let enqueueGlobalVariable = find(
          "swift_task_enqueueGlobal_hook", as: EnqueueGlobalHook.self),
        let delayVariable = find("swift_task_enqueueGlobalWithDelay_hook", as: DelayHook.self),
        let deadlineVariable = find(
          "swift_task_enqueueGlobalWithDeadline_hook", as: DeadlineHook.self),
        let enqueueGlobal = function("swift_task_enqueueGlobal", as: EnqueueGlobalOriginal.self)
      else { return nil }
      // Looked up only in the mode that uses it.
      let getMainExecutorVariable =
        routingMainActor
        ? find("swift_task_getMainExecutor_hook", as: GetMainExecutorHook.self) : nil
      if routingMainActor, getMainExecutorVariable == nil { return nil }
      return RuntimeHookRouter(
        routesMainActor: routingMainActor,
        enqueueGlobalVariable: enqueueGlobalVariable, delayVariable: delayVariable,
        deadlineVariable: deadlineVariable, getMainExecutorVariable: getMainExecutorVariable,
        enqueueGlobal: enqueueGlobal, getTime: function("swift_get_time", as: GetTime.self))
    }

    private init(
      routesMainActor: Bool,
      enqueueGlobalVariable: UnsafeMutablePointer<EnqueueGlobalHook?>,
      delayVariable: UnsafeMutablePointer<DelayHook?>,
      deadlineVariable: UnsafeMutablePointer<DeadlineHook?>,
      getMainExecutorVariable: UnsafeMutablePointer<GetMainExecutorHook?>?,
      enqueueGlobal: @escaping EnqueueGlobalOriginal, getTime: GetTime?
    ) {
      self.routesMainActor = routesMainActor
      self.enqueueGlobalVariable = enqueueGlobalVariable
      self.delayVariable = delayVariable
      self.deadlineVariable = deadlineVariable
      self.getMainExecutorVariable = getMainExecutorVariable
      self.enqueueGlobal = enqueueGlobal
      self.getTime = getTime
    }

    var backend: DeterministicExecution.Backend {
      routesMainActor ? .runtimeHooks : .globalHookAndMainQueue
    }

    var mainActorJobsStayOnMainQueue: Bool { !routesMainActor }

    /// The body's task prefers the task executor its jobs run on. The runtime compares a task's
    /// preference with the task executor its job runs on (undefined meaning the platform's
    /// default), so without it every hop to the generic executor was a switch, one more job;
    /// and a `Task.yield()` inside a default actor's turn enqueues on the task's preference or,
    /// without one, on the platform's default executor, past the hook, so that it left the run
    /// and raced back. Structured child tasks inherit the preference; `Task {}` does not.
    /// (Every run's body: `hopsAreJobs` adds nothing here.)
    func makeBodyTask(
      hopsAreJobs: Bool, _ operation: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
      Task(executorPreference: HookTaskExecutor.shared, operation: operation)
    }

    var hopExecutor: UnownedTaskExecutor? { HookTaskExecutor.shared.asUnownedTaskExecutor() }

    /// Installs the run's hooks.
    ///
    /// The runtime's hook variables are plain C function pointers that it reads, with plain
    /// loads, on whatever thread enqueues; no API writes them atomically, so these are plain
    /// stores too (as `withMainSerialExecutor`'s are). Why that holds on every platform the
    /// backend runs on (x86-64 and ARM64, Linux and Apple's): a pointer-sized, aligned store is
    /// single-copy atomic on both, so a reader sees the old hook or the new one, never a torn
    /// value; and both hooks are correct at any moment: the old one hands a job to the platform
    /// (or the hook before it), the new one asks `ActiveRuns`, which answers "no run" until
    /// the run is registered and after it has ended. What a reader on another thread may see
    /// late is only which of the two it calls. The run's own first job is enqueued after this
    /// on the same thread, which sees its own stores; the routing that matters is therefore
    /// in place before the body starts. The formal data race (C's memory model calls
    /// unsynchronised plain accesses undefined) is the runtime's interface, not ours to close:
    /// the thread sanitizer step of `.ci/run` does not instrument the runtime's loads.
    func beginRouting() {
      previous.withLock {
        $0 = Hooks(
          enqueueGlobal: enqueueGlobalVariable.pointee, delay: delayVariable.pointee,
          deadline: deadlineVariable.pointee, getMainExecutor: getMainExecutorVariable?.pointee)
      }
      getMainExecutorVariable?.pointee = Self.routedGetMainExecutor
      delayVariable.pointee = Self.routedDelay
      deadlineVariable.pointee = Self.routedDeadline
      enqueueGlobalVariable.pointee = Self.routedEnqueueGlobal
    }

    func endRouting() {
      let saved = previous.withLock { $0 }
      // Restored even when replaced: a library that set the hook inside the run (for example
      // `withMainSerialExecutor`, which sets it again rather than restoring it) would
      // otherwise leave it set for the rest of the process. (`withMainSerialExecutor` inside
      // a run is harmless here: its hook sends every job to the main actor, whose executor
      // is still the run's.)
      enqueueGlobalVariable.pointee = saved.enqueueGlobal
      delayVariable.pointee = saved.delay
      deadlineVariable.pointee = saved.deadline
      getMainExecutorVariable?.pointee = saved.getMainExecutor
    }

    func takeRoutingBack() -> String? {
      // One load and a compare per job. Where main-actor jobs stay on the main queue, the run
      // already runs its jobs in turns there, where the replacing hook (withMainSerialExecutor's
      // sends every job to the main actor) sends them too: nothing escapes, so nothing to take
      // back or report (the neighbour tests' withMainSerialExecutorInsideARun passes there).
      guard !mainActorJobsStayOnMainQueue, let report = takeoverReport else { return nil }
      enqueueGlobalVariable.pointee = Self.routedEnqueueGlobal
      return report
    }

    var takeoverReport: String? {
      guard !same(enqueueGlobalVariable.pointee, Self.routedEnqueueGlobal) else { return nil }
      return """
        The runtime's global enqueue hook was replaced during the run (by \
        withMainSerialExecutor called inside it, or another library that sets \
        swift_task_enqueueGlobal_hook), so the run stopped seeing its jobs. Call such a \
        function outside withDeterministicExecution, not inside it.
        """
    }

    func run(_ job: UnownedJob, onMainActor: Bool) {
      if onMainActor {
        job.runSynchronously(on: HookMainExecutor.shared.asUnownedSerialExecutor())
      } else {
        // On a task executor of ours, so that `Task.yield()`, which enqueues on the current
        // executor rather than through the global hook, comes back to the run (run as the
        // global executor runs it, a yield would bypass the hook: `aYieldingTaskStaysInTheRun`).
        job.runSynchronously(on: HookTaskExecutor.shared.asUnownedTaskExecutor())
      }
    }

    func handBack(_ job: UnownedJob, onMainActor: Bool) {
      if onMainActor {
        HookMainExecutor.shared.enqueue(job)
      } else {
        enqueueGlobal(job)
      }
    }

    func sendToPlatform(_ job: UnownedJob, onMainActor: Bool) {
      if onMainActor {
        HookMainExecutor.shared.enqueueOnPlatform(job)
      } else {
        passGlobalToPreviousHook(job, Self.enqueueOnPlatformGlobalExecutor)
      }
    }

    /// Sends a job the run does not take to whatever the hook held before the run.
    func passGlobalToPreviousHook(_ job: UnownedJob, _ original: EnqueueGlobalOriginal) {
      if let hook = previous.withLock({ $0.enqueueGlobal }) {
        hook(job, original)
      } else {
        original(job)
      }
    }

    func passDelayToPreviousHook(_ delay: UInt64, _ job: UnownedJob, _ original: DelayOriginal) {
      if let hook = previous.withLock({ $0.delay }) {
        hook(delay, job, original)
      } else {
        original(delay, job)
      }
    }

    func passDeadlineToPreviousHook(
      _ deadline: (Int64, Int64, Int64, Int64, Int32), _ job: UnownedJob,
      _ original: DeadlineOriginal
    ) {
      let (seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock) = deadline
      if let hook = previous.withLock({ $0.deadline }) {
        hook(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original)
      } else {
        original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
      }
    }

    /// How far a deadline on one of the runtime's clocks is from now; `nil` without the clock.
    func delay(untilSeconds seconds: Int64, nanoseconds: Int64, clock: Int32) -> Duration? {
      guard let getTime else {
        FallbackWarnings.warnOnce(
          "swift_get_time",
          """
          the runtime's swift_get_time was not found, so a Task.sleep with a deadline inside a \
          run sleeps in real time, not on the test scheduler's clock (sleep on the scheduler: \
          scheduler.sleep(for:))
          """)
        return nil
      }
      var nowSeconds: Int64 = 0
      var nowNanoseconds: Int64 = 0
      getTime(&nowSeconds, &nowNanoseconds, clock)
      return .seconds(seconds - nowSeconds) + .nanoseconds(nanoseconds - nowNanoseconds)
    }
  }

  /// The router while the hooks backend is the process's; the hooks read it (they are
  /// context-free functions, so they cannot capture it).
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  private var hookRouter: RuntimeHookRouter? { jobRouter as? RuntimeHookRouter }

  private func same<T>(_ a: T?, _ b: T) -> Bool {
    guard let a else { return false }
    return unsafeBitCast(a, to: UnsafeRawPointer.self)
      == unsafeBitCast(b, to: UnsafeRawPointer.self)
  }

  // The hooks themselves: context-free functions, as the runtime calls them.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  extension RuntimeHookRouter {
    static let routedEnqueueGlobal: EnqueueGlobalHook = { job, original in
      if let (run, isItsOwn) = ActiveRuns.owner(of: job) {
        run.enqueue(job, onMainActor: false, isItsOwn: isItsOwn)
      } else if let router = hookRouter {
        router.passGlobalToPreviousHook(job, original)
      } else {
        original(job)
      }
    }

    /// The global executor, reached past the hooks: what a job the run does not take runs on
    /// when no other library's hook was there before the run.
    static let enqueueOnPlatformGlobalExecutor: EnqueueGlobalOriginal = { job in
      let job = UncheckedSendable(job)
      DispatchQueue.global().async {
        job.value.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor())
      }
    }

    static let routedGetMainExecutor: GetMainExecutorHook = { _ in
      HookMainExecutor.shared.asUnownedSerialExecutor()
    }

    // Only the run's own tasks sleep on its virtual clock: the hooks are called on the sleeping
    // task, so its task-locals tell whether it belongs to the run. (Reached only on runtimes
    // before 6.3; see `runtimeCallsDelayHooks`.)
    static let routedDelay: DelayHook = { delay, job, original in
      if let run = ActiveRuns.runOfCurrentTask,
        run.enqueue(
          job, onMainActor: false, after: .nanoseconds(delay), fromDeadline: false)
      {
        return
      }
      hookRouter?.passDelayToPreviousHook(delay, job, original) ?? original(delay, job)
    }

    static let routedDeadline: DeadlineHook = {
      seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
      if let run = ActiveRuns.runOfCurrentTask,
        let delay = hookRouter?.delay(
          untilSeconds: seconds, nanoseconds: nanoseconds, clock: clock),
        run.enqueue(job, onMainActor: false, after: delay, fromDeadline: true)
      {
        return
      }
      let deadline = (seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock)
      if let router = hookRouter {
        router.passDeadlineToPreviousHook(deadline, job, original)
      } else {
        original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
      }
    }

  }

  /// The main actor's executor while runs route: the queue of the job's run while it is in
  /// progress, the platform's main executor otherwise (a task that suspended on the main actor
  /// during a run keeps this executor, so it must keep working after the run).
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  final class HookMainExecutor: SerialExecutor, @unchecked Sendable {
    // `@unchecked Sendable`: no stored state.
    static let shared = HookMainExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
      enqueue(UnownedJob(job))
    }

    func enqueue(_ job: UnownedJob) {
      if let (run, isItsOwn) = ActiveRuns.owner(of: job) {
        run.enqueue(job, onMainActor: true, isItsOwn: isItsOwn)
      } else {
        enqueueOnPlatform(job)
      }
    }

    /// The platform's main executor is the main queue, on every platform with the hooks.
    ///
    /// The job runs as the main actor's executor is now: this one while runs route (the hook
    /// answers with it), the platform's otherwise. Run as the platform's while the hook
    /// answers with this one, main-actor code of a test beside a run would see two main
    /// executors, and hop from one to the other at its next call to a function isolated to
    /// the main actor, letting other main-actor jobs run first (a `@MainActor` test's
    /// `waitForNextScheduledAction()` then counted the very action it was to wait for).
    func enqueueOnPlatform(_ job: UnownedJob) {
      let job = UncheckedSendable(job)
      DispatchQueue.main.async {
        job.value.runSynchronously(on: MainActor.sharedUnownedExecutor)
      }
    }

    /// Main-actor jobs always run on the main queue (routed ones too): that is the isolation
    /// the runtime asks about when this executor and the platform's are compared.
    func checkIsolated() {
      dispatchPrecondition(condition: .onQueue(.main))
    }

    #if compiler(>=6.2)
      func isIsolatingCurrentContext() -> Bool? {
        DispatchQueue.getSpecific(key: mainQueueMarker) != nil
      }
    #endif
  }

  /// Set on the main queue, to ask without trapping whether code runs on it.
  private let mainQueueMarker: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// The task executor the run's global jobs run on: what they enqueue on it (`Task.yield()`)
  /// comes back to the run, or goes to the global executor when it belongs to no run.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  final class HookTaskExecutor: TaskExecutor, @unchecked Sendable {
    // `@unchecked Sendable`: no stored state.
    static let shared = HookTaskExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      if let (run, isItsOwn) = ActiveRuns.owner(of: job) {
        run.enqueue(job, onMainActor: false, isItsOwn: isItsOwn)
      } else {
        // Only the hooks router runs jobs on this executor, so it is the process's router.
        guard let router = hookRouter else {
          preconditionFailure(
            "Deterministic execution: a job reached the runtime hooks' task executor, but the process's backend is not the runtime hooks"
          )
        }
        router.enqueueGlobal(job)
      }
    }
  }
#else
  /// WASI and Windows: no `dlsym`, so no hooks.
  struct RuntimeHookRouter {
    static func unavailableReason(routingMainActor: Bool) -> String {
      "the runtime hooks need dlsym, which this platform lacks"
    }
    static let runtimeCallsDelayHooks = false
    static func make(routingMainActor: Bool) -> (any JobRouter)? { nil }
  }
#endif

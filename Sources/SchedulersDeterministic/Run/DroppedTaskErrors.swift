// Errors that no one can ever see: a task of the run (`Task {}` or `Task.detached {}`) that ends
// by throwing when nothing holds its `Task` handle any more. Swift drops such an error without
// a word; kotlinx-coroutines-test reports the like at the end of the test, and so does a run.
//
// The runtime has no hook that says when a task ends, nor how. The run runs every job of its
// tasks, though, so it sees the last one: it holds a reference to a task while running the
// task's job, and afterwards reads the task's future fragment, which says whether the task has
// ended and how (`include/swift/ABI/Task.h`: `FutureFragment`, a wait-queue word whose low bits
// are the status, 1 for a value and 2 for an error, then the result type, then the error).
// Where that fragment lies in a task is not part of any public interface, so it is not assumed:
// the process finds it once, on tasks it makes for the purpose (`TaskEndingLayout.find()`), and
// reads nothing where it could not. A handle nobody holds any more is one whose task the run's
// own reference alone keeps alive, which the runtime's retain count says.

import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension DeterministicExecution {
  /// What a deterministic run does with the error of a task that ends by throwing when nothing
  /// holds its `Task` handle any more, so that no one can ever await it: an unstructured
  /// `Task {}` whose handle was dropped, say, and whose error Swift would otherwise drop
  /// without a word.
  ///
  /// ```swift
  /// @Test func savingReportsItsFailure() async throws {
  ///   try await withDeterministicExecution(virtualTime: .autoAdvance) { @MainActor in
  ///     let model = DraftModel(client: .failing)
  ///     model.saveButtonTapped()  // Task { try await client.save(draft) }: the error is lost
  ///     // The run records: "A task of the deterministic run ended by throwing
  ///     // MyApp.SaveError.offline, and nothing held its handle…"
  ///   }
  /// }
  /// ```
  ///
  /// Only tasks whose jobs the run runs are seen (not structured child tasks, whose errors
  /// their group or `async let` hands on, and not a main-actor task's last job under the
  /// main-queue backend, which bypasses the run). A task that ends by throwing
  /// `CancellationError` is not reported: it was cancelled, as kotlinx-coroutines-test does not
  /// report a cancelled coroutine either. A handle still held when the task ends (stored in a
  /// property, say) could still be awaited, so its error is not reported either.
  public enum DroppedTaskErrors: Sendable, Equatable, CustomStringConvertible {
    /// The run records each such error as a failure of the test, naming it. The default.
    case reported
    /// The run lets them go, as Swift does: for a test that drops errors on purpose.
    ///
    /// ```swift
    /// try await withDeterministicExecution(droppedTaskErrors: .ignored) {
    ///   Task { throw AlreadyGone() }  // meant: nobody needs to know
    /// }
    /// ```
    case ignored

    public var description: String {
      switch self {
      case .reported: "reported"
      case .ignored: "ignored"
      }
    }
  }

  /// Whether this process can tell how a task of a run ended, and so report errors nobody can
  /// await (``DroppedTaskErrors``): `nil` when it can, otherwise why not. Found out the first
  /// time a run starts; `nil` before that too.
  ///
  /// ```swift
  /// if let reason = DeterministicExecution.droppedTaskErrorsUnseenReason { print(reason) }
  /// ```
  ///
  /// > Important: Experimental. It depends on how this process's runtime lays out a task, which
  /// > no API promises: when it is `nil`, and its text, may change in a minor release before 1.0.
  public static var droppedTaskErrorsUnseenReason: String? {
    switch TaskEndingLayout.state.withLock({ $0 }) {
    case .unknown, .found: nil
    case .notFound(let reason): reason
    }
  }
}

/// Where a task's ending is written, as found in this process.
struct TaskEndingLayout: Sendable, Equatable {
  /// The byte offset of the future fragment's wait-queue word, whose low two bits are the
  /// status (0 running, 1 a value, 2 an error) and whose other bits are the waiting tasks.
  var statusOffset: Int
  /// The byte offset of the error the task threw (null until then).
  var errorOffset: Int

  enum State: Sendable, Equatable {
    case unknown
    case found(TaskEndingLayout)
    case notFound(String)
  }

  static let state = Mutex(State.unknown)

  /// The layout, once found; `nil` when not found (yet).
  static var current: TaskEndingLayout? {
    if case .found(let layout) = state.withLock({ $0 }) { return layout }
    return nil
  }

  /// Whether the search for the layout has ended, found or not: a run need not await
  /// `findOnce()` (a hop to the generic executor and back) then.
  static var isKnown: Bool { state.withLock { $0 } != .unknown }

  /// Finds the layout once per process (later calls return at once), on tasks made for the
  /// purpose: one that throws a known error, whose fragment must hold it with the status 2,
  /// and one that returns, whose fragment at the same place must say 1 with no error.
  static func findOnce() async {
    guard state.withLock({ $0 }) == .unknown else { return }
    let found = await find()
    state.withLock { state in
      if state == .unknown { state = found }
    }
  }

  private struct Probe: Error {}

  private static func find() async -> State {
    guard RetainCalls.found != nil else {
      return .notFound(
        "the runtime's reference counting entry points (swift_retain, swift_release, "
          + "swift_retainCount) were not found with dlsym")
    }
    let thrown: any Error = Probe()
    let errorBits = unsafeBitCast(thrown as any Error, to: UInt.self)
    let failing = Task<Void, any Error> { throw thrown }
    let returning = Task<Void, any Error> {}
    _ = await failing.result
    _ = await returning.result
    let word = MemoryLayout<UInt>.size
    let failed = unsafeBitCast(failing, to: UnsafeRawPointer.self)
    let succeeded = unsafeBitCast(returning, to: UnsafeRawPointer.self)
    guard
      TaskHeader(failed).isUnstructuredFuture, TaskHeader(succeeded).isUnstructuredFuture
    else {
      return .notFound(
        "the runtime's task header is not laid out as this package reads it (the job's flags)")
    }
    // From past the job's header (eight words), through the task's private part (the error
    // lies at byte 224 with Swift 6.3 on Linux), staying inside the task's own allocation:
    // the first word that holds the thrown error is the fragment's error (the task's frame,
    // further on, may hold it too).
    for offset in stride(from: 8 * word, to: 64 * word, by: word)
    where failed.load(fromByteOffset: offset, as: UInt.self) == errorBits {
      let layout = TaskEndingLayout(statusOffset: offset - 2 * word, errorOffset: offset)
      guard layout.status(of: failed) == 2, layout.status(of: succeeded) == 1,
        succeeded.load(fromByteOffset: offset, as: UInt.self) == 0
      else { break }
      return .found(layout)
    }
    return .notFound(
      "the runtime's tasks do not keep their errors where this package looks for them")
  }

  /// The whole wait-queue word: once a task has ended, its status alone, with no waiter left.
  func status(of task: UnsafeRawPointer) -> UInt {
    task.load(fromByteOffset: statusOffset, as: UInt.self)
  }

  /// The error a task that has ended threw; `nil` if it returned, or has not ended.
  func error(of task: UnsafeRawPointer) -> (any Error)? {
    guard status(of: task) == 2, task.load(fromByteOffset: errorOffset, as: UInt.self) != 0
    else { return nil }
    // A copy, retained: the task's own reference stays with the task.
    return task.advanced(by: errorOffset).assumingMemoryBound(to: (any Error).self).pointee
  }
}

/// A job's header, as the runtime lays it out (`include/swift/ABI/Task.h`: a heap object's two
/// words, two scheduler words, then 32-bit flags; `MetadataValues.h`: `JobFlags`).
struct TaskHeader {
  let flags: UInt32
  /// The low half of a task's id, which follows the flags: the runtime numbers tasks in the
  /// order it makes them.
  let id: UInt32

  init(_ job: UnsafeRawPointer) {
    flags = job.load(fromByteOffset: 4 * MemoryLayout<UInt>.size, as: UInt32.self)
    id = job.load(fromByteOffset: 4 * MemoryLayout<UInt>.size + 4, as: UInt32.self)
  }

  /// The job's kind, the low byte of its flags (`JobKind`: 0 a task, 192 to 194 a default
  /// actor's turn, 195 the continuation of a yield or a sleep).
  var kind: UInt8 { UInt8(truncatingIfNeeded: flags) }

  /// A task (kind 0), not an actor's turn or another job.
  var isTask: Bool { kind == 0 }

  /// A task with a result (`IsFuture`, bit 25) that is not a child task (`IsChildTask`, bit 24:
  /// every task of a group or `async let`).
  var isUnstructuredFuture: Bool {
    isTask && flags & (1 << 25) != 0 && flags & (1 << 24) == 0
  }
}

/// The run's unstructured tasks in flight, each held alive from its first job on, so that how
/// it ended can be read once the job that ended it has run (that job releases the task, and
/// nothing else might hold it). A task's own job ends only that task; an actor's turn may end
/// any task that ran on the actor, so after one every task in flight is looked at.
///
/// Used only where the run runs its jobs, one at a time: the thread that drives the run (the
/// caller's while it drives in place, or a driver thread), or the main queue while that thread
/// waits.
final class TaskEndingWatch: @unchecked Sendable {
  // `@unchecked Sendable`: the run's jobs run one at a time, each after the previous one has
  // returned, on threads that hand over to each other through a semaphore or a `sync`.
  private var inFlight: Set<UnsafeMutableRawPointer> = []
  /// The errors dropped so far, described.
  private var dropped: [String] = []
  private let layout: TaskEndingLayout
  private let retainCalls: RetainCalls

  /// `nil` where the process cannot tell how a task ended.
  init?() {
    guard let layout = TaskEndingLayout.current, let retainCalls = RetainCalls.found else {
      return nil
    }
    self.layout = layout
    self.retainCalls = retainCalls
  }

  /// Runs `job`, one of the run's own (with `run`), watching the task it belongs to, and notes
  /// the errors of the tasks it ended.
  func running(_ job: UnownedJob, _ run: () -> Void) {
    let address = unsafeBitCast(job, to: UnsafeMutableRawPointer.self)
    let header = TaskHeader(address)
    if header.isTask {
      if header.isUnstructuredFuture, !inFlight.contains(address) {
        // Exactly one reference of the watch's own, whatever copies the compiler makes of
        // values: the count read afterwards must tell it from everyone else's.
        _ = retainCalls.retain(address)
        inFlight.insert(address)
      }
      run()
      if inFlight.contains(address) { lookAt(address) }
    } else {
      run()
      guard !inFlight.isEmpty else { return }
      // In the order the tasks were made (their ids), so that a report lists the same errors in
      // the same order every time.
      let ended = inFlight.filter { layout.status(of: $0) != 0 }
      for task in ended.sorted(by: { TaskHeader($0).id < TaskHeader($1).id }) { lookAt(task) }
    }
  }

  /// If `task` has ended: stops watching it, and notes its error if it threw one other than
  /// `CancellationError` while nothing but the watch held it.
  ///
  /// "Nothing but the watch held it" is read as a strong count of 1, and that reading rests on
  /// three facts, not on a documented meaning of the count:
  /// - `swift_retainCount` is the runtime's strong count of a heap object
  ///   (`include/swift/Runtime/HeapObject.h`, the entry point the standard library's
  ///   `_getRetainCount` calls), and a task is a heap object: a `Task` value is one strong
  ///   reference to it, whoever holds the value (a variable, a `Task` in a property or an
  ///   array); weak and unowned references are not counted.
  /// - The runtime's own reference to a running task is released when the task's last job
  ///   returns, and this is read after that job returned, on the thread that ran it, before
  ///   the run runs anything else: no other job of the run can hold or drop a handle meanwhile.
  /// - The watch holds exactly one reference of its own (taken with `swift_retain`, above).
  /// `anErrorWhoseHandleIsStillHeldIsNotReported` and
  /// `aTaskWhoseHandleWasDroppedFailsTheTestNamingItsError` (DroppedTaskErrorsTests) fail if a
  /// runtime counted otherwise, in either direction.
  private func lookAt(_ task: UnsafeMutableRawPointer) {
    guard layout.status(of: task) != 0 else { return }
    inFlight.remove(task)
    defer { retainCalls.release(task) }
    guard let error = layout.error(of: task), !(error is CancellationError),
      retainCalls.count(task) == 1
    else { return }
    dropped.append(String(reflecting: error))
  }

  /// Lets go of the tasks still in flight when the run ends (they go on outside it, unwatched),
  /// and returns the errors dropped, described, in the order the tasks ended.
  func stopWatching() -> [String] {
    for task in inFlight { retainCalls.release(task) }
    inFlight.removeAll()
    return dropped
  }
}

/// The runtime's reference counting of heap objects, called on a task as on any of them: found
/// with `dlsym`, since Swift code may not name the runtime's entry points directly.
private struct RetainCalls: @unchecked Sendable {
  // `@unchecked Sendable`: C function pointers, which are thread-safe to call.
  let retain: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
  let release: @convention(c) (UnsafeMutableRawPointer) -> Void
  /// The strong count: 1 for an object only one reference holds.
  let count: @convention(c) (UnsafeMutableRawPointer) -> Int

  static let found: RetainCalls? = {
    guard let process = dlopen(nil, RTLD_NOW),
      let retain = dlsym(process, "swift_retain"),
      let release = dlsym(process, "swift_release"),
      let count = dlsym(process, "swift_retainCount")
    else { return nil }
    return RetainCalls(
      retain: unsafeBitCast(
        retain, to: (@convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer).self),
      release: unsafeBitCast(release, to: (@convention(c) (UnsafeMutableRawPointer) -> Void).self),
      count: unsafeBitCast(count, to: (@convention(c) (UnsafeMutableRawPointer) -> Int).self))
  }()
}

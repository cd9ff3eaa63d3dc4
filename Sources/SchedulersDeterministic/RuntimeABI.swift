// Every place the package reads the concurrency runtime's private layout or calls an entry
// point it does not declare: a job's header (its kind, a task's id and flags), a default
// actor's turn allocated apart, a task's future fragment (how it ended), reference counts, a
// task's name. None is public API, so none is trusted blindly. Two probes, awaited before a
// process's first run, check it on tasks they make. `RuntimeABI.probeOnce()` checks the
// header: where it does not read as expected, every reader gets "unknown" instead (a job of no
// known kind, no task id), the features that need it are off, and a warning names what failed
// and what is off; it then checks a task's async frames (Linux only), and where they do not
// read as expected, reading frames is off without a warning (a deadlock report leaves out
// where tasks wait). `TaskEndingLayout.findOnce()` finds where a task's ending is written, for
// `.reported` dropped errors; where it cannot, a warning says why. (The
// runtime-hooks backend's hook variables live with that backend, in
// Routing/RuntimeHookRouting.swift, which finds them the same way and says so when they are
// missing.)

import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The probe of the runtime's layout, and what it found.
enum RuntimeABI {
  /// Whether a job's header reads as this package expects: set by the probe, before any run.
  static var headerIsKnown: Bool { headerKnown.load(ordering: .relaxed) }
  private static let headerKnown = Atomic<Bool>(true)

  private enum Probed: Equatable {
    case no
    case yes(failure: String?)
  }
  private static let probed = Mutex(Probed.no)
  /// For this package's tests: the next probe fails, as on a runtime laid out otherwise.
  static let pretendsTheHeaderIsUnknown = Atomic<Bool>(false)

  /// The id of `task`, in the order the runtime makes tasks (the probe checks that order); 0
  /// where the header is not read.
  static func id(of task: Task<Void, Never>) -> UInt32 {
    TaskHeader(unsafeBitCast(task, to: UnsafeRawPointer.self)).id
  }

  /// Whether a task's async frames read as this package expects (`TaskHeader.resumePoints`):
  /// set by the probe, before any run.
  static var resumePointsAreKnown: Bool { resumePointsKnown.load(ordering: .relaxed) }
  private static let resumePointsKnown = Atomic<Bool>(false)

  /// Whether the probe has run: a run need not await `probeOnce()` (a hop) then.
  static var isProbed: Bool { probed.withLock { $0 } != .no }

  /// Why the header is not read, when the probe found it laid out otherwise; `nil` when it is
  /// read (or the probe has not run).
  static var headerFailure: String? {
    if case .yes(let failure) = probed.withLock({ $0 }) { return failure }
    return nil
  }

  /// Checks once per process (later calls return at once), on two tasks made for the purpose,
  /// that a job's header reads as expected: each a task (kind 0) with a result and no parent,
  /// the second numbered after the first.
  static func probeOnce() async {
    guard !isProbed else { return }
    let first = Task<Void, Never> {}
    let second = Task<Void, Never> {}
    await first.value
    await second.value
    let one = TaskHeader(reading: unsafeBitCast(first, to: UnsafeRawPointer.self))
    let two = TaskHeader(reading: unsafeBitCast(second, to: UnsafeRawPointer.self))
    var failure: String?
    if pretendsTheHeaderIsUnknown.load(ordering: .relaxed) {
      failure = "the probe was told to fail"
    } else if !one.isUnstructuredFuture || !two.isUnstructuredFuture {
      failure = "a task's flags do not say it is a task with a result"
    } else if one.id == 0 || two.id &- one.id == 0 || two.id &- one.id >= 1 << 31 {
      failure = "tasks made one after the other are not numbered in order"
    }
    let framesAreKnown = failure == nil ? await framesReadAsExpected() : false
    probed.withLock { state in
      guard state == .no else { return }
      state = .yes(failure: failure)
      if failure != nil { headerKnown.store(false, ordering: .relaxed) }
      resumePointsKnown.store(framesAreKnown, ordering: .relaxed)
    }
  }

  /// Whether a task's async frames read as `TaskHeader.resumePoints` reads them, checked on a
  /// task of the probe's, from inside a continuation's closure, where the runtime has already
  /// written where the task will resume (`areTheProbesOwnFrames`).
  private static func framesReadAsExpected() async -> Bool {
    #if os(Linux)
      return areTheProbesOwnFrames(await probesResumePoints())
    #else
      // Only where it is tested. On Apple platforms the runtime may sign these pointers
      // (arm64e pointer authentication), and a signed one must not be followed.
      return false
    #endif
  }

  /// The resume points of a task of the probe's, read as `TaskHeader.resumePoints` reads
  /// them while it waits in `probeAwaits`.
  static func probesResumePoints() async -> [UInt] {
    let prober = Task<[UInt], Never> { await probeAwaits() }
    return await prober.value
  }

  /// Whether `points` are the frames of the probe's task (`probesResumePoints`): three to 23 of
  /// them, each inside code that is loaded (`dladdr` finds its image), the three innermost in
  /// the image that holds this module (the continuation's closure's caller, `probeAwaits`, the
  /// task's closure); and, where that image's symbol table names this module's functions,
  /// `probeAwaits` and then the task's closure among them. A layout read at the wrong offsets
  /// may still find a chain of words that point into loaded code, but not into these
  /// functions.
  static func areTheProbesOwnFrames(_ points: [UInt]) -> Bool {
    guard points.count >= 3, points.count < 24,
      points.allSatisfy({ FunctionNames.image(holding: $0) != nil }),
      let ownImage = FunctionNames.image(holding: codeOfThisModule)?.dli_fbase,
      points.prefix(3).allSatisfy({ FunctionNames.image(holding: $0)?.dli_fbase == ownImage })
    else { return false }
    // A stripped image names none of them: the image is all there is to go by.
    guard FunctionNames.demangledName(of: codeOfThisModule) != nil else { return true }
    let names = points.map { FunctionNames.demangledName(of: $0) ?? "" }
    guard let waits = names.firstIndex(where: { $0.contains("probeAwaits") }) else {
      return false
    }
    return names[(waits + 1)...].contains {
      $0.contains("closure") && $0.contains("probesResumePoints")
    }
  }

  /// The address of a function of this module's (a C function pointer to a closure of its
  /// own), to find the image that holds the module.
  private static var codeOfThisModule: UInt {
    let function: @convention(c) () -> Void = {}
    return unsafeBitCast(function, to: UInt.self)
  }

  @inline(never)
  private static func probeAwaits() async -> [UInt] {
    await withUnsafeContinuation { continuation in
      let points = withUnsafeCurrentTask { task in
        task.map { TaskHeader(reading: unsafeBitCast($0, to: UnsafeRawPointer.self)) }?
          .resumePointsAsLaidOut(limit: 24) ?? []
      }
      continuation.resume(returning: points)
    }
  }
}

/// A job's header, as the runtime lays it out (`include/swift/ABI/Task.h`: a heap object's two
/// words, two scheduler words, then 32-bit flags; `MetadataValues.h`: `JobFlags`). Where the
/// probe found it laid out otherwise (`RuntimeABI.headerIsKnown`), every job reads as one of no
/// known kind, with no id.
struct TaskHeader {
  let flags: UInt32
  /// The low half of a task's id, which follows the flags: the runtime numbers tasks in the
  /// order it makes them.
  let id: UInt32
  private let job: UnsafeRawPointer

  init(_ job: UnsafeRawPointer) {
    self.init(job, reading: RuntimeABI.headerIsKnown)
  }

  /// The header as it lies in memory, whatever the probe found (for the probe itself).
  init(reading job: UnsafeRawPointer) {
    self.init(job, reading: true)
  }

  private init(_ job: UnsafeRawPointer, reading: Bool) {
    self.job = job
    flags = reading ? job.load(fromByteOffset: 4 * MemoryLayout<UInt>.size, as: UInt32.self) : 0xFF
    id = reading ? job.load(fromByteOffset: 4 * MemoryLayout<UInt>.size + 4, as: UInt32.self) : 0
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

  /// Where a task that is not running will go on, innermost first: the function its next job
  /// resumes (`ResumeTask`, the job's eighth word), then, frame by frame, the function each
  /// async frame returns to (`ResumeContext`, the word after the job's header, then each
  /// `AsyncContext`'s `Parent` and `ResumeParent`), as code addresses; `FunctionNames` names
  /// them. Empty where the probe did not find the frames laid out so
  /// (`RuntimeABI.resumePointsAreKnown`). Read only a task that cannot run meanwhile and that
  /// something holds alive: its frames are the task's own memory.
  func resumePoints(limit: Int = 24) -> [UInt] {
    guard RuntimeABI.resumePointsAreKnown else { return [] }
    return resumePointsAsLaidOut(limit: limit)
  }

  /// `resumePoints` without asking the probe (for the probe itself).
  fileprivate func resumePointsAsLaidOut(limit: Int) -> [UInt] {
    let word = MemoryLayout<UInt>.size
    var points = [job.load(fromByteOffset: 7 * word, as: UInt.self)]
    var context = job.load(fromByteOffset: 8 * word, as: UInt.self)
    while context != 0, Self.mayHoldAFrame(context), points.count < limit {
      guard let frame = UnsafeRawPointer(bitPattern: context) else { break }
      let resumeParent = frame.load(fromByteOffset: word, as: UInt.self)
      context = frame.load(as: UInt.self)
      // The task's first frame returns into the runtime, which ends the task: not a place
      // where the task waits.
      guard context != 0 else { break }
      points.append(resumeParent)
    }
    return points
  }

  /// Whether a frame may lie at `address` on `architecture`: a frame is aligned to 16 bytes
  /// (`MaximumAlignment`) and lies in user space, above the first 64 KiB
  /// (`UserSpace.end(on:)`); anything else is not a frame, and is not followed.
  static func mayHoldAFrame(
    _ address: UInt, on architecture: UserSpace.Architecture = .current
  ) -> Bool {
    address & 0xF == 0 && address >= 1 << 16 && address < UserSpace.end(on: architecture)
  }

  /// For a default actor's turn allocated apart (`ProcessOutOfLineJob`, kind 193), its actor,
  /// which follows the job's eight-word header; `nil` for any other job.
  var actorOfTurnAllocatedApart: UInt? {
    guard kind == 193 else { return nil }
    return job.load(fromByteOffset: 8 * MemoryLayout<UInt>.size, as: UInt.self)
  }
}

/// Where a process's memory lies on Linux, where frames are read: below the end of user space,
/// which depends on the architecture. Kernel addresses lie above it, and so does a pointer
/// carrying a tag in its top byte (arm64's memory tagging), which is not followed either.
enum UserSpace {
  enum Architecture: Sendable, CaseIterable {
    case x86_64, arm64, other

    /// The architecture this process runs on.
    static var current: Self {
      #if arch(x86_64)
        .x86_64
      #elseif arch(arm64)
        .arm64
      #else
        .other
      #endif
    }
  }

  /// The first address past user space on `architecture`.
  ///
  /// - x86_64: 1 << 47 (the kernel's `TASK_SIZE` with four-level paging is a page below it).
  ///   With five-level paging the kernel maps above it only for an `mmap` given a hint above
  ///   it, which the runtime's allocator never gives.
  /// - arm64: 1 << 48, the kernel's `TASK_SIZE` with 48-bit virtual addresses, the common
  ///   configuration, where the heap and `mmap`'d memory, and so a task's frames, lie above
  ///   1 << 47 (0x0000_aaaa_xxxx_xxxx, 0x0000_ffff_xxxx_xxxx). With 39 or 42 bits user space
  ///   ends lower, within this bound; with 52 bits the kernel maps above 1 << 48 only for a
  ///   hint above it, as on x86_64.
  /// - Elsewhere frames are not read (the probe fails first); 1 << 47, the smaller bound.
  static func end(on architecture: Architecture) -> UInt {
    switch architecture {
    case .x86_64: 1 << 47
    case .arm64: 1 << 48
    case .other: 1 << 47
    }
  }
}

/// What a job is, by the kind in its header (`TaskHeader.kind`).
package enum JobKind: Sendable {
  case task, actor, resumption, other

  init(_ job: UnownedJob) {
    switch TaskHeader(unsafeBitCast(job, to: UnsafeRawPointer.self)).kind {
    case 0: self = .task
    case 192...194: self = .actor
    case 195: self = .resumption
    default: self = .other
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

  /// Whether `task` has ended: its status, the word's low two bits, is no longer 0 (running).
  /// The other bits of a running task's word point to the tasks awaiting it, so the word
  /// alone is not 0 then.
  func hasEnded(_ task: UnsafeRawPointer) -> Bool {
    status(of: task) & 0b11 != 0
  }

  /// The error a task that has ended threw; `nil` if it returned, or has not ended.
  func error(of task: UnsafeRawPointer) -> (any Error)? {
    guard status(of: task) == 2, task.load(fromByteOffset: errorOffset, as: UInt.self) != 0
    else { return nil }
    // A copy, retained: the task's own reference stays with the task.
    return task.advanced(by: errorOffset).assumingMemoryBound(to: (any Error).self).pointee
  }
}

/// The runtime's reference counting of heap objects, called on a task as on any of them: found
/// with `dlsym`, since Swift code may not name the runtime's entry points directly.
struct RetainCalls: @unchecked Sendable {
  // `@unchecked Sendable`: C function pointers, which are thread-safe to call.
  let retain: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
  let release: @convention(c) (UnsafeMutableRawPointer) -> Void
  /// The strong count: 1 for an object only one reference holds.
  let count: @convention(c) (UnsafeMutableRawPointer) -> Int

  static let found: RetainCalls? = {
    guard let retain = processSymbol("swift_retain"),
      let release = processSymbol("swift_release"),
      let count = processSymbol("swift_retainCount")
    else { return nil }
    return RetainCalls(
      retain: unsafeBitCast(
        retain, to: (@convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer).self),
      release: unsafeBitCast(release, to: (@convention(c) (UnsafeMutableRawPointer) -> Void).self),
      count: unsafeBitCast(count, to: (@convention(c) (UnsafeMutableRawPointer) -> Int).self))
  }()
}

/// The name of the task running on this thread, if it has one (`Task(name:)`, Swift 6.2), read
/// through the runtime's entry point, found at run time.
func currentTaskName() -> String? {
  guard let read = readCurrentTaskName, let name = read() else { return nil }
  return String(cString: name)
}

private let readCurrentTaskName: (@convention(c) () -> UnsafePointer<CChar>?)? = {
  processSymbol("swift_task_getCurrentTaskName").map {
    unsafeBitCast($0, to: (@convention(c) () -> UnsafePointer<CChar>?).self)
  }
}()

/// The address of `name`, a function or variable of the process or of a library it has loaded
/// (the Swift runtime's, the C library's), or `nil` where none is found: what the package reads
/// of the runtime it finds at run time, since Swift code may not name the runtime's entry points,
/// and some exist only in some runtimes.
func processSymbol(_ name: String) -> UnsafeMutableRawPointer? {
  guard let process = dlopen(nil, RTLD_NOW) else { return nil }
  return dlsym(process, name)
}

// What an exploration says when a schedule ends the process: a trap Swift cannot catch (a
// failed precondition, a force unwrap, a continuation resumed twice, a body stuck for good).
// Before each schedule the exploration prepares its report line (which schedule, which seed,
// how to replay it); while the schedule runs, each job it chooses is noted in a fixed ring. A
// handler of the fatal signals, chained in front of whatever handled them before (the Swift
// runtime's backtracer, a sanitizer's), writes both to standard error with `write(2)` and hands
// the signal on. Nothing in the handler allocates or takes a lock: it only copies bytes that
// were laid out before the crash, formats a few integers, and reads whether the crashing
// thread is the run's (`ActiveRuns.threadIsARunsNow`, two thread-specific slots). A crash of
// another thread (another test's, a Dispatch queue's) is said to be not known to be the
// schedule's.

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The report an exploration leaves on standard error when a schedule stops the process.
///
/// Costs per schedule: the report line, formatted and copied once (about a microsecond); per
/// chosen job, one store into the ring.
package enum ExplorationCrashReport {
  /// Installs the handlers of the fatal signals, once per process; later calls do nothing.
  package static func arm() {
    #if os(Linux) || canImport(Darwin)
      _ = installed
    #endif
  }

  /// The line written if the process stops from now on, until `disarm()` or the next
  /// `prepare`. Also clears the ring of chosen jobs: a new run's jobs follow.
  package static func prepare(_ report: String) {
    var bytes = Array(report.utf8)
    if bytes.count > reportCapacity { bytes = Array(bytes.prefix(reportCapacity)) }
    Storage.reportLength.pointee = 0
    bytes.withUnsafeBufferPointer { source in
      guard let start = source.baseAddress else { return }
      Storage.report.update(from: start, count: source.count)
    }
    Storage.reportLength.pointee = bytes.count
    Storage.jobsNoted.pointee = 0
  }

  /// No exploration in progress: a crash from now on is not one of its findings.
  package static func disarm() {
    Storage.reportLength.pointee = 0
  }

  /// Notes a job an exploring run chose, as the report's list of the last jobs names it.
  /// Called by the run's driver, one job at a time.
  static func noteChosen(ordinal: Int, kind: JobKind, alternatives: Int, preempted: Bool) {
    let count = Storage.jobsNoted.pointee
    let kindCode: UInt64 =
      switch kind {
      case .task: 0
      case .actor: 1
      case .resumption: 2
      case .other: 3
      }
    Storage.ring[count % ringCapacity] =
      UInt64(truncatingIfNeeded: min(ordinal, 0xFFFF_FFFF)) << 32
      | UInt64(truncatingIfNeeded: min(alternatives, 0xFF_FFFF)) << 8
      | (preempted ? 1 << 7 : 0) | kindCode
    Storage.jobsNoted.pointee = count + 1
  }

  /// How many of the last jobs the report lists.
  static let ringCapacity = 12
  static let reportCapacity = 4_096

  /// Laid out once, before any crash, so that the handler only reads.
  private enum Storage {
    nonisolated(unsafe) static let report = UnsafeMutablePointer<UInt8>.allocate(
      capacity: reportCapacity)
    nonisolated(unsafe) static let reportLength = zeroed(Int.self)
    nonisolated(unsafe) static let ring = UnsafeMutablePointer<UInt64>.allocate(
      capacity: ringCapacity)
    nonisolated(unsafe) static let jobsNoted = zeroed(Int.self)
    /// Set by the first handler call: a trap that raises a second signal prints once.
    nonisolated(unsafe) static let written = zeroed(Int.self)
    /// Where the handler formats a line: never on the heap, never shared with `prepare`.
    nonisolated(unsafe) static let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)

    static func zeroed<T: BinaryInteger>(_: T.Type) -> UnsafeMutablePointer<T> {
      let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
      pointer.initialize(to: 0)
      return pointer
    }
  }

  #if os(Linux) || canImport(Darwin)
    /// The signals a trap ends the process with: `SIGILL` or `SIGTRAP` (Swift's traps, by
    /// architecture), `SIGABRT` (`abort()`, the concurrency runtime's misuse reports), and the
    /// faults of a bad pointer.
    private static let fatalSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// What handled each fatal signal before, by signal number, handed the signal on to.
    nonisolated(unsafe) private static let previous = UnsafeMutablePointer<sigaction>.allocate(
      capacity: 64)

    private static let installed: Void = {
      ActiveRuns.prepareThreadMarks()
      _ = Storage.report
      _ = Storage.reportLength
      _ = Storage.ring
      _ = Storage.jobsNoted
      _ = Storage.written
      _ = Storage.scratch
      for signal in fatalSignals {
        var action = sigaction()
        #if canImport(Darwin)
          action.__sigaction_u.__sa_sigaction = handleFatalSignal
        #else
          action.__sigaction_handler.sa_sigaction = handleFatalSignal
        #endif
        action.sa_flags = Int32(SA_SIGINFO | SA_ONSTACK)
        sigemptyset(&action.sa_mask)
        _ = sigaction(signal, &action, previous + Int(signal))
      }
    }()

    /// Writes the prepared report, puts the previous handler back and hands it the signal. If
    /// that handler returns (or there was none), returning lets the fault happen again, or
    /// `abort()` raise again, under the previous disposition.
    private static let handleFatalSignal:
      @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void =
        { signal, info, context in
          ExplorationCrashReport.writeReport()
          var before = ExplorationCrashReport.previous[Int(signal)]
          _ = sigaction(signal, &before, nil)
          #if canImport(Darwin)
            let asSigaction = before.__sigaction_u.__sa_sigaction
            let asHandler = before.__sigaction_u.__sa_handler
          #else
            let asSigaction = before.__sigaction_handler.sa_sigaction
            let asHandler = before.__sigaction_handler.sa_handler
          #endif
          if before.sa_flags & Int32(SA_SIGINFO) != 0 {
            asSigaction?(signal, info, context)
          } else if let asHandler, unsafeBitCast(asHandler, to: Int.self) > 1 {
            // (0 and 1 are SIG_DFL and SIG_IGN.)
            asHandler(signal)
          }
        }
  #endif

  /// Writes the report and the last chosen jobs to standard error, once; nothing if no
  /// exploration is in progress. A crash of a thread that is not the run's (neither its driver
  /// nor one running a job of its own) says so first.
  private static func writeReport() {
    let length = Storage.reportLength.pointee
    guard length > 0, Storage.written.pointee == 0 else { return }
    Storage.written.pointee = 1
    put("\n")
    if !ActiveRuns.threadIsARunsNow() {
      put(
        """
        The crash came from a thread that is not the deterministic run's (neither its driver \
        nor one running a job of its own): another test's, a Dispatch queue's, a thread of its \
        own. It is not known to be the schedule's, and replaying the schedule may not repeat \
        it. The exploration was then here:

        """)
    }
    _ = write(2, Storage.report, length)
    let noted = Storage.jobsNoted.pointee
    guard noted > 0 else {
      put(" No job of the schedule was chosen yet.\n")
      return
    }
    put(" The last jobs it ran (")
    putNumber(noted)
    put(" chosen in all; numbered as in an exploration's trace):\n")
    for index in max(0, noted - ringCapacity)..<noted {
      let code = Storage.ring[index % ringCapacity]
      put("    ")
      putNumber(index + 1)
      switch code & 0x7F {
      case 0: put(". task ")
      case 1: put(". actor ")
      case 2: put(". a yield or wake-up, job ")
      default: put(". job ")
      }
      putNumber(Int(code >> 32))
      if code & (1 << 7) != 0 {
        let others = Int((code >> 8) & 0xFF_FFFF)
        put("  ◀ chosen over ")
        putNumber(others)
        if others == 1 { put(" other that could run") } else { put(" others that could run") }
      }
      put("\n")
    }
  }

  private static func put(_ text: StaticString) {
    _ = write(2, text.utf8Start, text.utf8CodeUnitCount)
  }

  private static func putNumber(_ value: Int) {
    var value = max(value, 0)
    var end = 32
    repeat {
      end -= 1
      Storage.scratch[end] = UInt8(ascii: "0") + UInt8(value % 10)
      value /= 10
    } while value > 0 && end > 0
    _ = write(2, Storage.scratch + end, 32 - end)
  }
}

import Dispatch
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs `body` on a driver thread: a parked one woken for it, or a new one when none is parked.
///
/// Threads are kept, not made per run. On a busy machine a new thread waits for a whole
/// scheduler time slice before it first runs (Linux places it behind the running tasks), where a
/// parked thread woken by a thread that then blocks runs at once (docs/deterministic-execution.md,
/// "The driver loop", counts the context switches of 1,000 tests).
func startDriverThread(_ body: @escaping @Sendable () -> Void) {
  if let parked = DriverThread.parked.withLock({ $0.popLast() }) {
    parked.hand(body)
  } else {
    DriverThread.start(body)
  }
}

/// A thread that drives runs, one at a time, and parks between them.
final class DriverThread: @unchecked Sendable {
  // `@unchecked Sendable`: `work` is written by the waker before it signals `wake`, and read by
  // the thread after its wait returns (the semaphore orders the two).
  private var work: (@Sendable () -> Void)?
  private let wake = DispatchSemaphore(value: 0)

  /// The threads parked now, waiting for a run. One run goes at a time, but a thread parks only
  /// after it has handed the run's end to its caller, who may start the next run first: a
  /// second thread covers that.
  static let parked = Mutex<[DriverThread]>([])
  static let keptParked = 2

  fileprivate func hand(_ body: @escaping @Sendable () -> Void) {
    work = body
    wake.signal()
  }

  /// The thread's life: run what it was handed, park, and run the next, until more threads are
  /// parked than are kept.
  private func serve(_ first: @escaping @Sendable () -> Void) {
    var body = first
    while true {
      body()
      let parks = Self.parked.withLock { parked -> Bool in
        guard parked.count < Self.keptParked else { return false }
        parked.append(self)
        return true
      }
      guard parks else { return }
      wake.wait()
      body = work!
      work = nil
    }
  }

  /// Starts a thread with a stack large enough for deep synchronous code in jobs.
  fileprivate static func start(_ body: @escaping @Sendable () -> Void) {
    final class Box {
      let body: () -> Void
      init(_ body: @escaping () -> Void) { self.body = body }
    }
    let thread = DriverThread()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, 8 << 20)
    #if canImport(Darwin)
      var handle: pthread_t?
    #else
      var handle = pthread_t()
    #endif
    let status = pthread_create(
      &handle, &attributes,
      { pointer in
        #if canImport(Darwin)
          Unmanaged<Box>.fromOpaque(pointer).takeRetainedValue().body()
        #else
          Unmanaged<Box>.fromOpaque(pointer!).takeRetainedValue().body()
        #endif
        return nil
      }, Unmanaged.passRetained(Box { thread.serve(body) }).toOpaque())
    pthread_attr_destroy(&attributes)
    precondition(
      status == 0, "Deterministic execution: could not start its driver thread (\(status))")
    #if canImport(Darwin)
      pthread_detach(handle!)
    #else
      pthread_detach(handle)
    #endif
  }
}

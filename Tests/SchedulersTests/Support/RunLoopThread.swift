import Foundation
import Schedulers
import Synchronization

/// A thread that runs its own run loop until stopped, for tests of the real run-loop
/// scheduler: the test thread never spins a run loop itself.
final class RunLoopThread: Sendable {
  private let started = DispatchSemaphore(value: 0)
  private let stopped = Atomic(false)
  private let loop = Mutex<UncheckedSendable<RunLoop>?>(nil)

  /// The thread's run loop. Only its thread-safe members (`perform`, adding a timer) are used.
  var runLoop: RunLoop { loop.withLock { $0! }.value }

  init() {
    let thread = Thread { [self] in
      let runLoop = RunLoop.current
      // A loop with no source returns at once; this timer keeps it waiting.
      runLoop.add(
        Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }, forMode: .default)
      loop.withLock { $0 = UncheckedSendable(runLoop) }
      started.signal()
      while !stopped.load(ordering: .acquiring) {
        _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
      }
    }
    thread.start()
    started.wait()
  }

  func stop() { stopped.store(true, ordering: .releasing) }
  deinit { stop() }
}

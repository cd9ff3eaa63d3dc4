import Foundation
import Synchronization

// Where Combine can be imported, Combine's conformance of `OperationQueue` is used instead;
// see Sources/Schedulers/PlatformWithCombine/.
#if !canImport(Combine)

  extension OperationQueue: Scheduler {
    /// An instant of an operation queue's clock (a `Date`), as in Combine.
    public typealias SchedulerTimeType = DateSchedulerTimeType<OperationQueue>

    /// Options for scheduling work on an operation queue: none, as in Combine.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Zero, as in Combine.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Adds the action to the queue as an operation.
    ///
    /// ```swift
    /// OperationQueue.main.schedule { print("on the main queue") }
    /// ```
    public func schedule(options _: SchedulerOptions?, _ action: @escaping SchedulerAction) {
      addOperation(action)
    }

    /// Adds the action to the queue as an operation at `date` (a dispatch timer on the wall
    /// clock waits until then, so the queue is not held by work that is not due).
    public func schedule(
      after date: SchedulerTimeType, tolerance _: SchedulerTimeType.Stride,
      options _: SchedulerOptions?, _ action: @escaping SchedulerAction
    ) {
      DispatchQueue.global().asyncAfter(wallDeadline: Self.wallTime(date.date)) { [self] in
        addOperation(action)
      }
    }

    /// Adds the action to the queue at `date` and every `interval` after, until the returned
    /// value is cancelled.
    ///
    /// Each occurrence is due `interval` after the previous deadline, so the timer does not
    /// drift; an occurrence is added as an operation when due, whether the previous one has run.
    /// Once `cancel()` has returned the action does not start again: an occurrence the timer
    /// added just before is skipped when the queue reaches it.
    ///
    /// ```swift
    /// let ticks = AnyCancellable(
    ///   queue.schedule(after: queue.now, interval: .seconds(1)) { tick() })
    /// ```
    ///
    /// - Precondition: `interval` is greater than zero.
    public func schedule(
      after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride, options _: SchedulerOptions?,
      _ action: @escaping SchedulerAction
    ) -> any Cancellable {
      precondition(
        interval > .zero,
        "OperationQueue: a repeating action needs an interval greater than zero, got \(describeStride(interval))"
      )
      let timer = DispatchSource.makeTimerSource(queue: .global())
      timer.schedule(
        wallDeadline: Self.wallTime(date.date), repeating: interval.timeInterval,
        leeway: .nanoseconds(Int(max(tolerance.timeInterval, 0) * 1e9)))
      let repeating = OperationQueueRepeatingAction(timer: timer)
      // The timer's handler runs on a global queue, so it can add an occurrence while
      // `cancel()` runs on another thread; the operation asks again when it starts.
      timer.setEventHandler { [self] in
        guard !repeating.isCancelled else { return }
        addOperation {
          guard !repeating.isCancelled else { return }
          action()
        }
      }
      timer.resume()
      return AnyCancellable(repeating)
    }

    private static func wallTime(_ date: Date) -> DispatchWallTime {
      let seconds = max(date.timeIntervalSince1970, 0)
      let whole = seconds.rounded(.down)
      return DispatchWallTime(
        timespec: timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9)))
    }
  }

  /// A repeating operation-queue action's timer, and whether it was cancelled.
  ///
  /// `@unchecked Sendable`: Dispatch sources are thread-safe objects whose `cancel()` may be
  /// called from any thread (the Linux overlay does not mark the protocol `Sendable`), and the
  /// flag is atomic.
  final class OperationQueueRepeatingAction: Cancellable, @unchecked Sendable {
    private let timer: any DispatchSourceTimer
    private let cancelled = Atomic<Bool>(false)

    init(timer: any DispatchSourceTimer) { self.timer = timer }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() {
      cancelled.store(true, ordering: .releasing)
      timer.cancel()
    }
  }

#endif

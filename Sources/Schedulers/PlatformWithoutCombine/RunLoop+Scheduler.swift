import Foundation

// Where Combine can be imported, Combine's conformance of `RunLoop` is used instead; see
// Sources/Schedulers/PlatformWithCombine/.
#if !canImport(Combine)

  extension RunLoop: Scheduler {
    /// An instant of a run loop's clock (a `Date`), as in Combine.
    public typealias SchedulerTimeType = DateSchedulerTimeType<RunLoop>

    /// Options for scheduling work on a run loop: none, as in Combine.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Zero, as in Combine.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Runs the action on this run loop's thread, the next time the loop runs.
    ///
    /// ```swift
    /// RunLoop.main.schedule { print("on the main run loop") }
    /// ```
    public func schedule(options _: SchedulerOptions?, _ action: @escaping SchedulerAction) {
      perform(action)
    }

    /// Runs the action on this run loop's thread at `date`, on a one-shot `Timer` in the
    /// default mode (Combine's choice too: not while the loop runs in another mode).
    public func schedule(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
      options _: SchedulerOptions?, _ action: @escaping SchedulerAction
    ) {
      let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in action() }
      timer.tolerance = max(tolerance.timeInterval, 0)
      add(timer, forMode: .default)
    }

    /// Runs the action on this run loop's thread at `date` and every `interval` after, on a
    /// repeating `Timer` that stops when the returned value is cancelled.
    ///
    /// ```swift
    /// let ticks = RunLoop.main.schedule(after: RunLoop.main.now, interval: .seconds(1)) { tick() }
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
        "RunLoop: a repeating action needs an interval greater than zero, got \(describeStride(interval))"
      )
      let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in
        action()
      }
      timer.tolerance = max(tolerance.timeInterval, 0)
      add(timer, forMode: .default)
      return AnyCancellable(FoundationTimerCancellable(timer: timer))
    }
  }

  /// Invalidates a Foundation timer. `Timer` is not `Sendable`, but `invalidate()` may be called
  /// from any thread (it takes effect on the timer's run loop).
  struct FoundationTimerCancellable: Cancellable, @unchecked Sendable {
    let timer: Timer
    func cancel() { timer.invalidate() }
  }

#endif

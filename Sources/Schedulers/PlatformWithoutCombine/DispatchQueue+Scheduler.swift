import Dispatch

// Where Combine can be imported, Combine's conformance of `DispatchQueue` is used instead; see Sources/Schedulers/PlatformWithCombine/.
#if !canImport(Combine)

  extension DispatchQueue: Scheduler {
    /// Options for scheduling work on a dispatch queue.
    ///
    /// ```swift
    /// queue.schedule(options: .init(qos: .userInitiated)) { work() }
    /// ```
    public struct SchedulerOptions: Sendable {
      /// The quality of service to run the work with.
      public var qos: DispatchQoS
      /// A group the work belongs to while it is pending or running.
      public var group: DispatchGroup?
      // `DispatchWorkItemFlags` is not `Sendable` on Linux; its raw value is.
      private var flagsRawValue: DispatchWorkItemFlags.RawValue

      /// Work item flags, such as `.barrier`.
      public var flags: DispatchWorkItemFlags {
        get { DispatchWorkItemFlags(rawValue: flagsRawValue) }
        set { flagsRawValue = newValue.rawValue }
      }

      /// Creates scheduler options.
      public init(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        group: DispatchGroup? = nil
      ) {
        self.qos = qos
        self.group = group
        self.flagsRawValue = flags.rawValue
      }
    }

    /// The current time of the system's uptime clock.
    public var now: SchedulerTimeType { SchedulerTimeType(DispatchTime.now()) }

    /// Zero: Dispatch applies its own leeway.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Schedules an action on the queue, as `async` does.
    ///
    /// Inlinable so that the caller's closure becomes Dispatch's block directly.
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
      async(
        group: options?.group, qos: options?.qos ?? .unspecified, flags: options?.flags ?? [],
        execute: action)
    }

    /// Schedules an action on the queue at `date`, as `asyncAfter` does.
    ///
    /// Dispatch chooses its own leeway, so `tolerance` is a hint that may be ignored. A `group`
    /// in the options is entered at once and left when the action has run.
    public func schedule(
      after date: SchedulerTimeType, tolerance _: SchedulerTimeType.Stride,
      options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) {
      let group = options?.group
      group?.enter()
      asyncAfter(
        deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []
      ) {
        action()
        group?.leave()
      }
    }

    /// Schedules an action on the queue at `date` and every `interval` after, with a dispatch
    /// timer that stops when the returned value is cancelled or deallocated.
    ///
    /// ```swift
    /// let timer = AnyCancellable(
    ///   DispatchQueue.main.schedule(after: DispatchQueue.main.now, interval: .seconds(1)) { tick() })
    /// ```
    ///
    /// - Precondition: `interval` is greater than zero.
    public func schedule(
      after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
      _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
      precondition(
        interval > .zero,
        "DispatchQueue: a repeating action needs an interval greater than zero, got \(describeStride(interval))"
      )
      let timer = DispatchSource.makeTimerSource(queue: self)
      timer.schedule(
        deadline: date.dispatchTime, repeating: interval.timeInterval,
        leeway: .nanoseconds(max(tolerance.nanoseconds, 0)))
      timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
        action()
      }
      timer.resume()
      return AnyCancellable(DispatchTimerCancellable(timer: timer))
    }
  }

  /// Cancels a dispatch timer source.
  ///
  /// `@unchecked Sendable`: Dispatch sources are thread-safe objects, and `cancel()` may be
  /// called from any thread; the Linux overlay just does not mark the protocol `Sendable`.
  struct DispatchTimerCancellable: Cancellable, @unchecked Sendable {
    let timer: any DispatchSourceTimer
    func cancel() { timer.cancel() }
  }

#endif

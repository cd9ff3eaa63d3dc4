#if canImport(Combine)
  extension Publishers {
    /// A publisher that emits the scheduler's time every `interval`, on any scheduler: the
    /// scheduler-generic timer that Combine's `Timer.publish` (run loops only) is not.
    ///
    /// Like Combine's timer publisher it is connectable, and a tick nobody asked for is
    /// dropped, not queued. On a test scheduler it ticks as the test advances:
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// var ticks = 0
    /// let timer = Publishers.Timer(every: .seconds(1), scheduler: scheduler)
    ///   .autoconnect()
    ///   .sink { _ in ticks += 1 }
    /// scheduler.advance(by: .seconds(3))  // ticks == 3
    /// timer.cancel()
    /// ```
    ///
    /// Available where Combine is; where it is not, ``Scheduler/timer(interval:tolerance:missedTicks:fileID:filePath:line:column:)``
    /// gives the same ticks as an `AsyncSequence`.
    public final class Timer<S: Scheduler>: ConnectablePublisher {
      public typealias Output = S.SchedulerTimeType
      public typealias Failure = Never

      /// The time between ticks.
      public let interval: S.SchedulerTimeType.Stride
      /// The tolerance of each tick; the scheduler's minimum tolerance when `nil`.
      public let tolerance: S.SchedulerTimeType.Stride?
      /// The scheduler that ticks.
      public let scheduler: S
      /// Options passed to the scheduler.
      public let options: S.SchedulerOptions?

      private let subject = PassthroughSubject<Output, Never>()

      /// Creates a timer that ticks every `interval` once connected, the first tick one
      /// `interval` after `connect()`.
      ///
      /// - Precondition: `interval` is greater than zero.
      public init(
        every interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S, options: S.SchedulerOptions? = nil
      ) {
        precondition(
          interval > .zero,
          "Publishers.Timer(every:) needs an interval greater than zero, got \(describeStride(interval))"
        )
        self.interval = interval
        self.tolerance = tolerance
        self.scheduler = scheduler
        self.options = options
      }

      /// Attaches a subscriber; it receives the ticks that come while it has demand.
      public func receive<Subscriber: Combine.Subscriber>(subscriber: Subscriber)
      where Subscriber.Input == Output, Subscriber.Failure == Never {
        subject.receive(subscriber: subscriber)
      }

      /// Starts ticking; cancelling the returned value stops the timer.
      public func connect() -> any Cancellable {
        let subject = subject
        let scheduler = scheduler
        return scheduler.schedule(
          after: scheduler.now.advanced(by: interval), interval: interval,
          tolerance: tolerance ?? scheduler.minimumTolerance, options: options
        ) { subject.send(scheduler.now) }
      }
    }
  }

  extension Scheduler {
    /// A ``Combine/Publishers/Timer`` on this scheduler.
    ///
    /// ```swift
    /// let ticks = scheduler.timerPublisher(every: .seconds(1)).autoconnect()
    /// ```
    public func timerPublisher(
      every interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride? = nil,
      options: SchedulerOptions? = nil
    ) -> Publishers.Timer<Self> {
      Publishers.Timer(every: interval, tolerance: tolerance, scheduler: self, options: options)
    }
  }
#endif

import Schedulers
import Synchronization

/// A scheduler that records every call made on it, and forwards each to `base`.
///
/// Inject it where the code under test takes a scheduler, then assert on what the code asked
/// for, without driving time: "the debounce asked for 300 ms". Only code handed a recording
/// scheduler pays for the log; other schedulers have no recording switch to check.
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// let recording = RecordingScheduler(scheduler)
/// let debouncer = Debouncer(for: .milliseconds(300), scheduler: recording)
/// debouncer.call { print("search") }
/// #expect(recording.history.map(\.method) == [.now, .minimumTolerance, .scheduleCancellable])
/// #expect(recording.history.last?.delay == .milliseconds(300))
/// ```
public final class RecordingScheduler<Base: Scheduler & Sendable>: Scheduler, Sendable
where Base.SchedulerTimeType: Sendable, Base.SchedulerTimeType.Stride: Sendable {
  public typealias SchedulerTimeType = Base.SchedulerTimeType
  public typealias SchedulerOptions = Base.SchedulerOptions
  /// One recorded call: an entry of ``history``.
  public typealias Call = SchedulerCall<SchedulerTimeType>

  /// The scheduler every call is forwarded to.
  public let base: Base
  /// Whether reads of `now` and `minimumTolerance` are recorded (they are by default).
  public let recordsReads: Bool
  private let log = Mutex<[Call]>([])

  /// Wraps `base`.
  ///
  /// ```swift
  /// let recording = RecordingScheduler(DispatchQueue.test, recordsReads: false)
  /// ```
  public init(_ base: Base, recordsReads: Bool = true) {
    self.base = base
    self.recordsReads = recordsReads
  }

  /// Every call so far, in order.
  public var history: [Call] { log.withLock { $0 } }

  /// Forgets the calls so far.
  public func clearHistory() { log.withLock { $0.removeAll() } }

  private func record(
    _ method: Call.Method, date: SchedulerTimeType? = nil,
    duration: SchedulerTimeType.Stride? = nil, interval: SchedulerTimeType.Stride? = nil,
    tolerance: SchedulerTimeType.Stride? = nil, options: SchedulerOptions? = nil
  ) {
    let call = Call(
      method: method, at: base.now, date: date, duration: duration, interval: interval,
      tolerance: tolerance, options: options.map { "\($0)" })
    log.withLock { $0.append(call) }
  }

  public var now: SchedulerTimeType {
    if recordsReads { record(.now) }
    return base.now
  }

  public var minimumTolerance: SchedulerTimeType.Stride {
    if recordsReads { record(.minimumTolerance) }
    return base.minimumTolerance
  }

  public func schedule(options: SchedulerOptions?, _ action: @escaping SchedulerAction) {
    let action = sendableAction(action)
    record(.schedule, options: options)
    base.schedule(options: options, action)
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping SchedulerAction
  ) {
    let action = sendableAction(action)
    record(.scheduleAfter, date: date, tolerance: tolerance, options: options)
    base.schedule(after: date, tolerance: tolerance, options: options, action)
  }

  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping SchedulerAction
  ) -> any Cancellable {
    let action = sendableAction(action)
    record(
      .scheduleRepeating, date: date, interval: interval, tolerance: tolerance, options: options)
    return base.schedule(
      after: date, interval: interval, tolerance: tolerance, options: options, action)
  }

  public func scheduleCancellable(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
  ) -> any Cancellable {
    record(.scheduleCancellable, date: date, tolerance: tolerance, options: options)
    return base.scheduleCancellable(
      after: date, tolerance: tolerance, options: options, action)
  }

  public func sleep(until deadline: SchedulerTimeType, tolerance: SchedulerTimeType.Stride?)
    async throws
  {
    record(.sleepUntil, date: deadline, tolerance: tolerance)
    try await base.sleep(until: deadline, tolerance: tolerance)
  }

  public func sleep(for duration: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride?)
    async throws
  {
    record(.sleepFor, duration: duration, tolerance: tolerance)
    try await base.sleep(for: duration, tolerance: tolerance)
  }
}

#if canImport(Combine)
  extension RecordingScheduler: CustomizedScheduler, CustomSleepingScheduler {}
#endif

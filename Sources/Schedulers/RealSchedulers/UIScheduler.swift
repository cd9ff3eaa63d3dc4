import Dispatch

/// A scheduler that runs work at once when it is already on the main queue, and otherwise
/// hops to the main queue.
///
/// `DispatchQueue.main.schedule` always defers work to a later turn of the main queue, even
/// when called from the main queue; UI code that must update within the current turn (to
/// avoid a flicker) uses this scheduler instead. Delayed and repeating work always goes
/// through the main queue. The name is combine-schedulers'.
///
/// ```swift
/// let model = EpisodeModel(scheduler: UIScheduler.shared.eraseToAnyScheduler())
/// ```
public struct UIScheduler: Scheduler, Sendable {
  public typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
  public typealias SchedulerOptions = DispatchQueue.SchedulerOptions

  /// The one main-queue scheduler.
  public static let shared = UIScheduler()

  // Marks the main queue, so that code can ask "am I on the main queue?" on every platform,
  // including Linux test runners where main-actor code runs on a worker draining that queue.
  private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  private init() { _ = Self.mainQueueKey }

  /// Whether the caller runs on the main queue.
  package static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == 1 }

  public var now: SchedulerTimeType { DispatchQueue.main.now }
  public var minimumTolerance: SchedulerTimeType.Stride { DispatchQueue.main.minimumTolerance }

  /// Runs the action now if the caller is on the main queue, otherwise schedules it there.
  public func schedule(options: SchedulerOptions?, _ action: @escaping SchedulerAction) {
    let action = sendableAction(action)
    if Self.isOnMainQueue {
      action()
    } else {
      DispatchQueue.main.schedule(options: options, action)
    }
  }

  /// Schedules an action on the main queue at `date`.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping SchedulerAction
  ) {
    let action = sendableAction(action)
    DispatchQueue.main.schedule(after: date, tolerance: tolerance, options: options, action)
  }

  /// Schedules an action on the main queue at `date` and every `interval` after.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping SchedulerAction
  ) -> any Cancellable {
    let action = sendableAction(action)
    return DispatchQueue.main.schedule(
      after: date, interval: interval, tolerance: tolerance, options: options, action)
  }
}

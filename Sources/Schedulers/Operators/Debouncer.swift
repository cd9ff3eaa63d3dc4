/// Runs only the last action of a burst, once `interval` has passed without a newer one: the
/// callback form of ``_Concurrency/AsyncSequence/debounce(for:scheduler:)``, for code that is
/// not async.
///
/// ```swift
/// @MainActor final class SearchModel {
///   private let debouncer: Debouncer<AnySchedulerOf<DispatchQueue>>
///   init(scheduler: AnySchedulerOf<DispatchQueue>) {
///     debouncer = Debouncer(for: .milliseconds(300), scheduler: scheduler)
///   }
///   func queryChanged(_ query: String) {
///     debouncer.call { @MainActor [weak self] in self?.search(query) }
///   }
///   func search(_ query: String) { /* ... */ }
/// }
/// ```
///
/// Each ``call(_:)`` cancels the action waiting from the previous one and schedules its own
/// `interval` later on the scheduler; releasing the debouncer cancels the waiting action. It
/// is safe to call from any thread.
public final class Debouncer<S: Scheduler & Sendable>: Sendable
where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  @usableFromInline
  typealias Machine = DebounceMachine<TimedCallbackAction, Never, S.SchedulerTimeType>

  /// How long the debouncer waits for quiet.
  public let interval: S.SchedulerTimeType.Stride
  /// The scheduler whose time the debouncer follows.
  public let scheduler: S
  /// The debounce sequence's own state machine, driven by calls.
  @usableFromInline let driver: TimedCallbackDriver<S, Machine>

  /// Creates a debouncer that waits `interval` of `scheduler`'s time.
  ///
  /// ```swift
  /// let debouncer = Debouncer(for: .milliseconds(300), scheduler: DispatchQueue.main)
  /// ```
  ///
  /// - Precondition: `interval` is not negative.
  public init(for interval: S.SchedulerTimeType.Stride, scheduler: S) {
    precondition(
      interval >= .zero,
      "Debouncer(for:scheduler:) needs an interval of zero or more, got \(describeStride(interval))"
    )
    self.interval = interval
    self.scheduler = scheduler
    driver = TimedCallbackDriver(scheduler: scheduler, machine: Machine(interval: interval))
  }

  deinit { cancel() }

  /// Schedules `action` to run `interval` from now, replacing the action still waiting.
  ///
  /// ```swift
  /// debouncer.call { save(draft) }
  /// ```
  @inlinable
  public func call(_ action: @escaping @Sendable () -> Void) {
    driver.call(action)
  }

  /// Schedules a main-actor `action` to run `interval` from now, replacing the action still
  /// waiting.
  ///
  /// ```swift
  /// debouncer.call { @MainActor [weak self] in self?.search(query) }
  /// ```
  ///
  /// - Precondition: the scheduler runs the action on the main actor.
  public func call(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    _ action: @escaping @MainActor () -> Void
  ) {
    call(onMainActor(action, fileID: fileID, line: line))
  }

  /// Cancels the waiting action, if any.
  ///
  /// ```swift
  /// debouncer.cancel()
  /// ```
  public func cancel() {
    driver.cancel()
  }

  /// Runs the waiting action now, on the calling thread, instead of at the end of the
  /// interval; does nothing when no action waits. The next call starts a new interval.
  ///
  /// ```swift
  /// debouncer.call { save(draft) }
  /// debouncer.flush()  // the view is closing: save now
  /// ```
  public func flush() {
    driver.flush()
  }

  /// Whether an action is waiting to run.
  public var hasWaitingAction: Bool { driver.hasWaitingAction }
}

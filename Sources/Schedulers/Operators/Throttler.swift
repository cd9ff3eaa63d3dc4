/// Runs at most one action per `interval`: the first at once, then, of the actions that come
/// too soon, one at the end of the interval (the latest if `latest` is true, the first
/// otherwise). The callback form of
/// ``_Concurrency/AsyncSequence/throttle(for:scheduler:latest:)``, with the same timing.
///
/// ```swift
/// @MainActor final class FeedModel {
///   private let throttler: Throttler<AnySchedulerOf<DispatchQueue>>
///   init(scheduler: AnySchedulerOf<DispatchQueue>) {
///     throttler = Throttler(for: .milliseconds(500), scheduler: scheduler, latest: true)
///   }
///   func scrolled(to offset: Double) {
///     throttler.call { @MainActor [weak self] in self?.loadMore(below: offset) }
///   }
///   func loadMore(below offset: Double) { /* ... */ }
/// }
/// ```
///
/// An action allowed at once runs synchronously inside ``call(_:)``. Releasing the throttler
/// cancels the action waiting for the end of the interval. It is safe to call from any
/// thread.
public final class Throttler<S: Scheduler & Sendable>: Sendable
where S.SchedulerTimeType: Sendable, S.SchedulerTimeType.Stride: Sendable {
  @usableFromInline
  typealias Machine = ThrottleMachine<TimedCallbackAction, Never, S.SchedulerTimeType>

  /// The shortest time between two actions.
  public let interval: S.SchedulerTimeType.Stride
  /// The scheduler whose time the throttler follows.
  public let scheduler: S
  /// Whether the action run at the end of an interval is the latest (`true`) or the first
  /// (`false`) of those that came during it.
  public let latest: Bool
  /// Which edges of a window run an action: `.both` unless the throttler was created with
  /// ``init(for:scheduler:edges:latest:)``.
  public let edges: ThrottleEdges
  /// The throttle sequence's own state machine, driven by calls.
  @usableFromInline let driver: TimedCallbackDriver<S, Machine>

  /// Creates a throttler.
  ///
  /// ```swift
  /// let throttler = Throttler(for: .seconds(1), scheduler: DispatchQueue.main, latest: true)
  /// ```
  ///
  /// - Precondition: `interval` is not negative.
  public convenience init(for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool) {
    precondition(
      interval >= .zero,
      "Throttler(for:scheduler:latest:) needs an interval of zero or more, got \(describeStride(interval))"
    )
    self.init(checkedInterval: interval, scheduler: scheduler, edges: .both, latest: latest)
  }

  /// Creates a throttler that runs actions from the edges of each window you choose: the call
  /// that opens it (`.leading`), the latest call during it (`.trailing`), or both. The timing
  /// of ``_Concurrency/AsyncSequence/throttle(for:scheduler:edges:latest:)``.
  ///
  /// ```swift
  /// // Save at most once a second, the latest text, never on the first keystroke.
  /// let autosave = Throttler(for: .seconds(1), scheduler: DispatchQueue.main, edges: .trailing)
  /// ```
  ///
  /// - Precondition: `interval` is not negative.
  public convenience init(
    for interval: S.SchedulerTimeType.Stride, scheduler: S, edges: ThrottleEdges,
    latest: Bool = true
  ) {
    precondition(
      interval >= .zero,
      "Throttler(for:scheduler:edges:latest:) needs an interval of zero or more, got \(describeStride(interval))"
    )
    self.init(checkedInterval: interval, scheduler: scheduler, edges: edges, latest: latest)
  }

  private init(
    checkedInterval interval: S.SchedulerTimeType.Stride, scheduler: S, edges: ThrottleEdges,
    latest: Bool
  ) {
    self.interval = interval
    self.scheduler = scheduler
    self.edges = edges
    self.latest = latest
    driver = TimedCallbackDriver(
      scheduler: scheduler, machine: Machine(interval: interval, edges: edges, latest: latest))
  }

  deinit { cancel() }

  /// Runs `action` now if the interval since the last action has passed; otherwise keeps it
  /// (or the one already kept, if `latest` is false) for the end of the interval. With
  /// ``edges`` `.leading`, an action that comes too soon is dropped; with `.trailing`, every
  /// action waits for the end of its window.
  ///
  /// ```swift
  /// throttler.call { reportProgress(value) }
  /// ```
  @inlinable
  public func call(_ action: @escaping @Sendable () -> Void) {
    driver.call(action)
  }

  /// Runs a main-actor `action` now, or at the end of the interval; see ``call(_:)``.
  ///
  /// ```swift
  /// throttler.call { @MainActor [weak self] in self?.refresh() }
  /// ```
  ///
  /// - Precondition: the action runs on the main actor (the caller is on it, and the
  ///   scheduler runs actions there).
  public func call(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    _ action: @escaping @MainActor () -> Void
  ) {
    call(onMainActor(action, fileID: fileID, line: line))
  }

  /// Drops the waiting action, if any, and forgets the interval in progress: the next call
  /// runs at once, as the first one did.
  ///
  /// ```swift
  /// throttler.cancel()
  /// ```
  public func cancel() {
    driver.cancel()
  }

  /// Runs the waiting action now, on the calling thread, instead of at the end of the
  /// interval; does nothing when no action waits. The next interval starts now.
  ///
  /// ```swift
  /// throttler.call { reportProgress(value) }
  /// throttler.flush()  // done: report the last value now
  /// ```
  public func flush() {
    driver.flush()
  }

  /// Whether an action is waiting for the end of the interval.
  public var hasWaitingAction: Bool { driver.hasWaitingAction }
}

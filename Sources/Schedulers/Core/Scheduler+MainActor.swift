// The Swift 6 idiom for main-actor code.
//
// Actions are `@Sendable () -> Void`: a scheduler may run them on any thread. A `@MainActor`
// view model that wants to update its state from an action writes the closure as
// `{ @MainActor in ... }`; that closure type only fits these overloads, which run it on the
// main actor after checking, with a message naming the call site, that the scheduler really
// did call it there (the main queue, `UIScheduler`, or a test or immediate scheduler driven
// from the main actor). The `fileID:`/`line:` parameters record that call site, and also keep
// these overloads distinct from the `@Sendable` ones for the compiler.

extension Scheduler {
  /// Schedules a main-actor action to run as soon as possible.
  ///
  /// ```swift
  /// scheduler.schedule { @MainActor in self.isLoading = false }
  /// ```
  ///
  /// - Precondition: the scheduler runs the action on the main actor.
  public func schedule(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    _ action: @escaping @MainActor () -> Void
  ) {
    CallSite.$current.withValue(CallSite(fileID: fileID, line: line)) {
      schedule(options: nil, onMainActor(action, fileID: fileID, line: line))
    }
  }

  /// Schedules a main-actor action to run once at `date`.
  ///
  /// ```swift
  /// @MainActor final class HomeModel {
  ///   var episodes: [String]?
  ///   let scheduler: AnySchedulerOf<DispatchQueue>
  ///   init(scheduler: AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }
  ///
  ///   func reloadButtonTapped() {
  ///     scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) {
  ///       @MainActor [weak self] in self?.episodes = ["Pilot"]
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// - Precondition: the scheduler runs the action on the main actor.
  public func schedule(
    after date: SchedulerTimeType,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    _ action: @escaping @MainActor () -> Void
  ) {
    CallSite.$current.withValue(CallSite(fileID: fileID, line: line)) {
      schedule(
        after: date, tolerance: minimumTolerance, options: nil,
        onMainActor(action, fileID: fileID, line: line))
    }
  }

  /// Schedules a main-actor action to run at `date` and every `interval` after, until
  /// cancelled.
  ///
  /// ```swift
  /// timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
  ///   @MainActor [weak self] in self?.secondsLeft -= 1
  /// }
  /// ```
  ///
  /// - Precondition: the scheduler runs the action on the main actor.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    _ action: @escaping @MainActor () -> Void
  ) -> any Cancellable {
    CallSite.$current.withValue(CallSite(fileID: fileID, line: line)) {
      schedule(
        after: date, interval: interval, tolerance: minimumTolerance, options: nil,
        onMainActor(action, fileID: fileID, line: line))
    }
  }
}

/// Wraps a main-actor action into a `@Sendable` one that checks, then assumes, main-actor
/// isolation when it runs.
///
/// The check asks whether the thread is draining the main queue (the main actor's executor on
/// every platform, deterministic runs included) rather than calling
/// `MainActor.preconditionIsolated`: on Linux that fails inside `dispatch_assert_queue`, which
/// prints nothing useful.
@usableFromInline
func onMainActor(
  _ action: @escaping @MainActor () -> Void, fileID: StaticString, line: UInt
) -> @Sendable () -> Void {
  {
    precondition(
      UIScheduler.isOnMainQueue,
      """
      A `@MainActor` action scheduled at \(fileID):\(line) ran off the main actor. Schedule \
      main-actor work on the main queue, UIScheduler, or a test or immediate scheduler driven \
      from the main actor.
      """, file: fileID, line: line)
    MainActor.assumeIsolated { action() }
  }
}

import Schedulers

/// A scheduler that fails the running test whenever it is used.
///
/// Pass it to code paths that must not schedule anything. The test passes today, and fails the
/// day the code starts using the scheduler, with a message naming the scheduler, the method
/// used and where the scheduler was created:
///
/// ```swift
/// @Test func favoriteDoesNotSchedule() {
///   let model = EpisodeModel(scheduler: .unimplemented("EpisodeModel.scheduler"))
///   model.favoriteButtonTapped()  // fails the test if it schedules or reads `now`
/// }
/// ```
///
/// Every use is recorded: the `schedule` methods (and so every overload built on them), the
/// sleeps, and reads of ``now``. After recording, it behaves like a `VirtualImmediateScheduler` so that the
/// test can go on and report everything else that is wrong. Inside a Swift Testing test the
/// failure is an issue (expect it with `withKnownIssue`); inside XCTest, an `XCTFail`; outside
/// any test, a line on standard error. It never crashes the program.
public struct UnimplementedScheduler<SchedulerTimeType: Strideable & Sendable, SchedulerOptions>:
  Scheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible & Sendable {
  /// The name used in failure messages; empty for an unnamed scheduler.
  public let name: String
  let immediate: VirtualImmediateScheduler<SchedulerTimeType, SchedulerOptions>
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
  /// The test running where the scheduler was created, named in failures found elsewhere.
  package let testName: String?
  /// Whether `fileID` and `line` are where the scheduler was created (false for the
  /// `.unimplemented` properties, whose failures then do not name a line of the library).
  private(set) var knowsCreationSite: Bool

  /// Creates an unimplemented scheduler whose fallback clock stands at `now`.
  ///
  /// ```swift
  /// let scheduler = UnimplementedSchedulerOf<DispatchQueue>(
  ///   "feed", now: DispatchQueue.virtualEpoch)
  /// ```
  public init(
    _ name: String = "", now: SchedulerTimeType,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    self.name = name
    self.immediate = VirtualImmediateScheduler(now: now)
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
    self.testName = FailureReporter.currentTestName()
    self.knowsCreationSite = true
  }

  public var now: SchedulerTimeType {
    fail("read now")
    return immediate.now
  }

  /// Records a failure, as combine-schedulers' unimplemented scheduler does, then returns zero.
  ///
  /// The convenience `schedule(after:_:)` overloads read the tolerance before they schedule,
  /// so one such call through `AnyScheduler` or generic code records two issues (the read and
  /// the schedule), as with combine-schedulers. Called on the unimplemented scheduler itself,
  /// its own overloads pass a zero tolerance and record one.
  public var minimumTolerance: SchedulerTimeType.Stride {
    fail("read minimumTolerance")
    return immediate.minimumTolerance
  }

  /// Records one failure (not a second one for reading the tolerance), then runs the action.
  public func schedule(after date: SchedulerTimeType, _ action: @escaping SchedulerAction) {
    schedule(after: date, tolerance: .zero, options: nil, action)
  }

  /// Records one failure (not a second one for reading the tolerance), then runs the action
  /// once, as the immediate scheduler does.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    _ action: @escaping SchedulerAction
  ) -> any Cancellable {
    schedule(after: date, interval: interval, tolerance: .zero, options: nil, action)
  }

  public func schedule(options: SchedulerOptions?, _ action: @escaping SchedulerAction) {
    let action = sendableAction(action)
    fail("called schedule(options:_:)")
    immediate.schedule(options: options, action)
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping SchedulerAction
  ) {
    let action = sendableAction(action)
    fail("called schedule(after:tolerance:options:_:)")
    immediate.schedule(after: date, tolerance: tolerance, options: options, action)
  }

  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping SchedulerAction
  ) -> any Cancellable {
    let action = sendableAction(action)
    fail("called schedule(after:interval:tolerance:options:_:)")
    return immediate.schedule(
      after: date, interval: interval, tolerance: tolerance, options: options, action)
  }

  public func scheduleCancellable(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
  ) -> any Cancellable {
    fail("called scheduleCancellable(after:tolerance:options:_:)")
    return immediate.scheduleCancellable(
      after: date, tolerance: tolerance, options: options, action)
  }

  /// Records a failure, then returns at once unless the task is cancelled.
  public func sleep(until deadline: SchedulerTimeType, tolerance: SchedulerTimeType.Stride?)
    async throws
  {
    fail("called sleep(until:tolerance:)")
    try await immediate.sleep(until: deadline, tolerance: tolerance)
  }

  /// Records a failure, then returns at once unless the task is cancelled.
  public func sleep(for duration: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride?)
    async throws
  {
    fail("called sleep(for:tolerance:)")
    try await immediate.sleep(for: duration, tolerance: tolerance)
  }

  private func fail(_ use: String) {
    let scheduler =
      name.isEmpty ? "An unimplemented scheduler" : "Unimplemented scheduler '\(name)'"
    FailureReporter.recordFailure(
      knowsCreationSite
        ? "\(scheduler) (created at \(fileID):\(line)) was used: \(use)"
        : "\(scheduler) (made with the .unimplemented property, which cannot know where it was created: use .unimplemented(\"name\") for that) was used: \(use)",
      fileID: fileID, filePath: filePath, line: line, column: column, testName: testName)
  }
}

/// An unimplemented scheduler with the same time and option types as `S`.
///
/// ```swift
/// let scheduler: UnimplementedSchedulerOf<DispatchQueue> = .unimplemented("feed")
/// ```
public typealias UnimplementedSchedulerOf<S: Scheduler> = UnimplementedScheduler<
  S.SchedulerTimeType, S.SchedulerOptions
>

extension UnimplementedScheduler where SchedulerTimeType: VirtualEpochProviding {
  /// Creates a named unimplemented scheduler whose fallback clock stands at its time type's
  /// virtual epoch: what `DispatchQueue.unimplemented(_:)` and the like give.
  ///
  /// ```swift
  /// let scheduler = UnimplementedSchedulerOf<DispatchQueue>("feed")
  /// ```
  public init(
    _ name: String = "",
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    self.init(
      name, now: .virtualEpoch, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// What the `.unimplemented` properties give: failures name no creation site, since a
  /// property cannot know the line that read it.
  package static var creationSiteUnknown: Self {
    var scheduler = Self(now: .virtualEpoch)
    scheduler.knowsCreationSite = false
    return scheduler
  }
}

extension AnyScheduler where SchedulerTimeType: VirtualEpochProviding {
  /// An unimplemented scheduler, erased.
  ///
  /// A property cannot know where it was called from; prefer `unimplemented(_:)`, with a name.
  public static var unimplemented: Self {
    UnimplementedScheduler<SchedulerTimeType, SchedulerOptions>.creationSiteUnknown
      .eraseToAnyScheduler()
  }

  /// A named unimplemented scheduler, erased: it fails the running test whenever it is used.
  ///
  /// ```swift
  /// let model = EpisodeModel(scheduler: .unimplemented("EpisodeModel.scheduler"))
  /// ```
  public static func unimplemented(
    _ name: String = "",
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> Self {
    UnimplementedScheduler<SchedulerTimeType, SchedulerOptions>(
      name, fileID: fileID, filePath: filePath, line: line, column: column
    ).eraseToAnyScheduler()
  }
}

#if canImport(Combine)
  extension UnimplementedScheduler: CustomizedScheduler, CustomSleepingScheduler {}
#endif

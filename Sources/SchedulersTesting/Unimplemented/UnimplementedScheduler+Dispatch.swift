import Dispatch
import Schedulers

extension DispatchQueue {
  /// An unimplemented scheduler with a dispatch queue's types.
  ///
  /// A property cannot know where it was called from; prefer ``unimplemented(_:fileID:filePath:line:column:)``,
  /// whose failures point at the line that created the scheduler.
  public static var unimplemented: UnimplementedSchedulerOf<DispatchQueue> {
    UnimplementedScheduler(now: virtualEpoch, creationSiteUnknownAt: #fileID)
  }

  /// A named unimplemented scheduler with a dispatch queue's types.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.unimplemented("EpisodeModel.scheduler")
  /// ```
  public static func unimplemented(
    _ name: String = "",
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> UnimplementedSchedulerOf<DispatchQueue> {
    UnimplementedScheduler(
      name, now: virtualEpoch, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension AnyScheduler
where
  SchedulerTimeType == DispatchQueue.SchedulerTimeType,
  SchedulerOptions == DispatchQueue.SchedulerOptions
{
  /// An unimplemented scheduler, erased.
  ///
  /// A property cannot know where it was called from; prefer `unimplemented(_:)`, with a name.
  public static var unimplemented: Self { DispatchQueue.unimplemented.eraseToAnyScheduler() }

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
    DispatchQueue.unimplemented(
      name, fileID: fileID, filePath: filePath, line: line, column: column
    ).eraseToAnyScheduler()
  }
}

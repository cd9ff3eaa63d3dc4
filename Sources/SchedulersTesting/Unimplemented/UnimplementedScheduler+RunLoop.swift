import Foundation
import Schedulers

extension RunLoop {
  /// An unimplemented scheduler with a run loop's types.
  ///
  /// A property cannot know where it was called from; prefer ``unimplemented(_:fileID:filePath:line:column:)``,
  /// whose failures point at the line that created the scheduler.
  public static var unimplemented: UnimplementedSchedulerOf<RunLoop> {
    UnimplementedScheduler(now: virtualEpoch, creationSiteUnknownAt: #fileID)
  }

  /// A named unimplemented scheduler with a run loop's types.
  ///
  /// ```swift
  /// let scheduler = RunLoop.unimplemented("EpisodeModel.scheduler")
  /// ```
  public static func unimplemented(
    _ name: String = "",
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> UnimplementedSchedulerOf<RunLoop> {
    UnimplementedScheduler(
      name, now: virtualEpoch, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension AnyScheduler
where
  SchedulerTimeType == RunLoop.SchedulerTimeType,
  SchedulerOptions == RunLoop.SchedulerOptions
{
  /// An unimplemented scheduler, erased.
  ///
  /// A property cannot know where it was called from; prefer `unimplemented(_:)`, with a name.
  public static var unimplemented: Self { RunLoop.unimplemented.eraseToAnyScheduler() }

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
    RunLoop.unimplemented(
      name, fileID: fileID, filePath: filePath, line: line, column: column
    ).eraseToAnyScheduler()
  }
}

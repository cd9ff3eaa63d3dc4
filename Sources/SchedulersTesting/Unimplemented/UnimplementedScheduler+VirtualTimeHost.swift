import Foundation
import Schedulers

extension VirtualTimeHost {
  /// A named unimplemented scheduler with this host's types: it fails the running test whenever
  /// it is used, naming the line that created it.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.unimplemented("EpisodeModel.scheduler")
  /// ```
  ///
  /// Beside combine-schedulers, `DispatchQueue.unimplemented("name")` is combine-schedulers'
  /// (its only overload takes just a name, so it is the closer match); write
  /// `DispatchQueue.SchedulersTesting::unimplemented("name")` for this one.
  public static func unimplemented(
    _ name: String = "",
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> UnimplementedSchedulerOf<Self> {
    UnimplementedScheduler(name, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

// The unnamed `.unimplemented` of each host is declared on the host type itself, one line
// each, not on `VirtualTimeHost`: combine-schedulers declares it too, and a file that imports
// both must be told that the name is ambiguous, where a protocol extension's member would lose
// to combine-schedulers' without a word.

extension DispatchQueue {
  /// An unimplemented scheduler with a dispatch queue's types.
  ///
  /// A property cannot know where it was called from; prefer
  /// `unimplemented(_:)`, whose failures point at the line that
  /// created the scheduler.
  public static var unimplemented: UnimplementedSchedulerOf<DispatchQueue> { .creationSiteUnknown }
}

extension RunLoop {
  /// An unimplemented scheduler with a run loop's types; prefer
  /// `unimplemented(_:)`, which knows its creation site.
  public static var unimplemented: UnimplementedSchedulerOf<RunLoop> { .creationSiteUnknown }
}

extension OperationQueue {
  /// An unimplemented scheduler with an operation queue's types; prefer
  /// `unimplemented(_:)`, which knows its creation site.
  public static var unimplemented: UnimplementedSchedulerOf<OperationQueue> {
    .creationSiteUnknown
  }
}

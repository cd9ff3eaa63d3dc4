/// Where work was scheduled, carried to the scheduler in a task-local because the protocol's
/// requirements cannot take default `#fileID` arguments.
///
/// Sleeps, timers and the main-actor overloads know their caller's file and line. A plain
/// `Task.sleep` inside a deterministic run does not (the runtime does not say where it was
/// called), so it carries a label instead: "a Task.sleep", with its task's name when it has one.
@usableFromInline
package struct CallSite: Sendable, CustomStringConvertible {
  let fileID: StaticString?
  let line: UInt
  /// What scheduled the work, when that says more than "an action".
  let label: String?

  init(fileID: StaticString, line: UInt) {
    (self.fileID, self.line, self.label) = (fileID, line, nil)
  }

  /// Work whose call site is unknown, described by what scheduled it.
  package init(label: String) {
    (self.fileID, self.line, self.label) = (nil, 0, label)
  }

  @usableFromInline package var description: String {
    fileID.map { "\($0):\(line)" } ?? label ?? "unknown"
  }

  @usableFromInline @TaskLocal package static var current: CallSite?
}

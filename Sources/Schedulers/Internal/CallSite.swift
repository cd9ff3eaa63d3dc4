/// Where work was scheduled, carried to the scheduler in a task-local because the protocol's
/// requirements cannot take default `#fileID` arguments.
///
/// Plain data (a static string and a line), so that reading the task-local on every schedule
/// stays cheap.
@usableFromInline
struct CallSite: Sendable, CustomStringConvertible {
  let fileID: StaticString
  let line: UInt

  @usableFromInline var description: String { "\(fileID):\(line)" }

  @usableFromInline @TaskLocal static var current: CallSite?
}

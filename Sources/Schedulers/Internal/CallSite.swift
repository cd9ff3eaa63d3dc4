/// Where a sleep was called, carried to the scheduler in a task-local because the protocol's
/// requirements cannot take default `#fileID` arguments.
@usableFromInline
struct CallSite: Sendable, CustomStringConvertible {
  let fileID: StaticString
  let line: UInt

  @usableFromInline var description: String { "\(fileID):\(line)" }

  @usableFromInline @TaskLocal static var current: CallSite?
}

/// Scheduled work kept alive for a memory measurement: its owner holds every pending action.
public struct RetainedWork: @unchecked Sendable {
  /// The scheduler or heap that holds the work.
  public let owner: AnyObject
  init(owner: AnyObject) { self.owner = owner }
}

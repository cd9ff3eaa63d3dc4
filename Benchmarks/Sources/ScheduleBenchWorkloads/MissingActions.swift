/// A workload that ran a different number of actions than it should have.
public struct MissingActions: Error, CustomStringConvertible {
  public let workload: String
  public let expected: Int
  public let ran: Int
  public var description: String {
    "\(workload): expected \(expected) actions to run but \(ran) ran; refusing to report a figure"
  }
}

/// One pending action of a ``TestScheduler``, as ``TestScheduler/pendingWork`` lists it.
///
/// ```swift
/// for work in scheduler.pendingWork { print(work) }
/// // repeating every 1 s, due in 1 s, scheduled at Countdown.swift:14
/// ```
public struct PendingWork<SchedulerTimeType: Strideable & Sendable>: Sendable, Equatable,
  CustomStringConvertible
where SchedulerTimeType.Stride: Sendable {
  /// When the action is due.
  public let deadline: SchedulerTimeType
  /// How far the deadline is from the scheduler's `now` when the snapshot was taken (negative
  /// for an overdue action).
  public let dueIn: SchedulerTimeType.Stride
  /// The interval of a repeating action, `nil` for a one-shot one.
  public let interval: SchedulerTimeType.Stride?
  /// The file that scheduled it, when the API could know it (sleeps, timers, main-actor
  /// overloads, and code that set it); `nil` otherwise.
  public let fileID: String?
  /// The line that scheduled it, with ``fileID``.
  public let line: UInt?
  /// What scheduled it, when the scheduler knows more than "an action" but not a call site:
  /// "a Task.sleep" for a plain `Task.sleep` inside a deterministic run (with its task's name,
  /// when the task has one); `nil` otherwise.
  public let label: String?

  /// Whether the action repeats.
  public var isRepeating: Bool { interval != nil }

  /// Creates a description of pending work (the scheduler makes these).
  public init(
    deadline: SchedulerTimeType, dueIn: SchedulerTimeType.Stride,
    interval: SchedulerTimeType.Stride?, fileID: String?, line: UInt?, label: String? = nil
  ) {
    self.deadline = deadline
    self.dueIn = dueIn
    self.interval = interval
    self.fileID = fileID
    self.line = line
    self.label = label
  }

  /// "repeating every 1 s, due in 2 s, scheduled at Model.swift:12", "a Task.sleep, due in 1 s"
  /// for a plain sleep in a deterministic run, or "an action, due in 300 ms" when nothing more
  /// is known.
  public var description: String {
    "\(kind), due in \(describeStride(dueIn))\(site)"
  }

  /// What the work is and where it was scheduled, without when it is due: "repeating every
  /// 1 s, scheduled at Model.swift:12". What an auto-advancing run counts to name work that
  /// keeps scheduling itself.
  package var kindAndSite: String { kind + site }

  private var kind: String {
    interval.map { "repeating every \(describeStride($0))" } ?? label ?? "an action"
  }

  private var site: String { fileID.map { ", scheduled at \($0):\(line ?? 0)" } ?? "" }
}

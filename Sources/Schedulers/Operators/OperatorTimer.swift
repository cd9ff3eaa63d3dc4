/// The one timer of a time-based operator, as its state (kept under the operator's lock) sees
/// it: which timer is current, and the cancellation of the scheduled action once it exists.
///
/// Every timer gets a new id. A timer that fires after it was replaced or cancelled (a real
/// scheduler may already be running it) finds another id current and is ignored, so a stale
/// timer is harmless whatever the interleaving. Shared by the sequences' storage and the
/// callback driver, so both follow one rule.
@usableFromInline
struct OperatorTimer<Time: Sendable> {
  @usableFromInline var current: (id: UInt64, cancellable: SendableCancellable?)?
  @usableFromInline var nextID: UInt64 = 0

  @inlinable init() {}

  /// A timer to start once the lock is released.
  @usableFromInline
  struct Start {
    @usableFromInline let id: UInt64
    @usableFromInline let deadline: Time

    @inlinable
    init(id: UInt64, deadline: Time) {
      self.id = id
      self.deadline = deadline
    }
  }

  /// Whether a timer is set (scheduled, or about to be).
  @inlinable var isSet: Bool { current != nil }

  /// Applies a machine's change. Returns the scheduled action to cancel and the timer to
  /// start, both for after the lock.
  @inlinable
  mutating func apply(_ change: TimerChange<Time>) -> (cancel: SendableCancellable?, start: Start?)
  {
    switch change {
    case .keep:
      return (nil, nil)
    case .cancel:
      return (clear(), nil)
    case .set(let deadline):
      let replaced = current?.cancellable
      let id = nextID
      nextID += 1
      current = (id, nil)
      return (replaced, Start(id: id, deadline: deadline))
    }
  }

  /// Forgets the current timer; returns its scheduled action to cancel after the lock.
  @inlinable
  mutating func clear() -> SendableCancellable? {
    defer { current = nil }
    return current?.cancellable
  }

  /// Whether timer `id` is still the current one; if so it has fired and is cleared.
  @inlinable
  mutating func fire(_ id: UInt64) -> Bool {
    guard current?.id == id else { return false }
    current = nil
    return true
  }

  /// Keeps the cancellation of timer `id`'s scheduled action. Returns `false` if the timer is
  /// no longer current (replaced or cancelled while it was being scheduled): cancel it then.
  @inlinable
  mutating func attach(_ cancellable: SendableCancellable, to id: UInt64) -> Bool {
    guard current?.id == id else { return false }
    current?.cancellable = cancellable
    return true
  }
}

extension Scheduler where SchedulerTimeType: Sendable {
  /// Schedules an operator's timer, outside the operator's lock, and hands its cancellation to
  /// `attach` (which takes the lock); cancels it at once if the timer went stale meanwhile.
  @inlinable
  func startOperatorTimer(
    _ start: OperatorTimer<SchedulerTimeType>.Start,
    fire: @escaping @Sendable (UInt64) -> Void,
    attach: (UInt64, SendableCancellable) -> Bool
  ) {
    let id = start.id
    let cancellable = SendableCancellable(
      scheduleCancellable(after: start.deadline, tolerance: minimumTolerance, options: nil) {
        fire(id)
      })
    if !attach(id, cancellable) { cancellable.cancel() }
  }
}

/// A scheduler type whose time type has a virtual epoch: `DispatchQueue`, `RunLoop` and
/// `OperationQueue`. Its test, immediate and unimplemented schedulers start at
/// ``virtualEpoch``.
///
/// The members a host shares with combine-schedulers (`test`, `immediate`, `unimplemented`)
/// are declared on each host type, one line each, not here: beside combine-schedulers (in a
/// Composable Architecture app), a protocol extension's member would lose to combine-schedulers'
/// concrete one without a word, where the file must be told that the name is ambiguous. Those
/// lines forward to the generic initializers that ``VirtualEpochProviding`` gives. The members
/// combine-schedulers does not have live here, once for every host:
///
/// ```swift
/// let scheduler = DispatchQueue.test(order: .shuffled(seed: 42))
/// scheduler.now == DispatchQueue.virtualEpoch  // true
/// ```
public protocol VirtualTimeHost: Scheduler where SchedulerTimeType: VirtualEpochProviding {}

extension VirtualTimeHost {
  /// The instant that this host type's test, immediate and unimplemented schedulers start at.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// scheduler.now == DispatchQueue.virtualEpoch  // true
  /// ```
  public static var virtualEpoch: SchedulerTimeType { .virtualEpoch }

  /// A test scheduler with this host's time and option types, starting at ``virtualEpoch``,
  /// with the given order for actions due at the same instant.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test(order: .shuffled(seed: 42))
  /// ```
  public static func test(order: SameInstantOrder) -> TestScheduler<
    SchedulerTimeType, SchedulerOptions
  > {
    TestScheduler(order: order)
  }
}

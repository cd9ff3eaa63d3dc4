/// A scheduler type whose time type has a virtual epoch: `DispatchQueue`, `RunLoop` and
/// `OperationQueue`. Its test, immediate and unimplemented schedulers start at
/// ``virtualEpoch``.
///
/// `test`, `immediate` and the unnamed `unimplemented` are declared on each host type, one line
/// each, not here. combine-schedulers declares them on the same types, and beside it (in a
/// Composable Architecture app) a protocol extension's member would lose to its concrete one
/// without a word, where the file must be told that the name is ambiguous. Those lines forward
/// to the generic initializers that ``VirtualEpochProviding`` gives. Everything else lives here,
/// once for every host: ``virtualEpoch``, ``test(order:)``, and in `SchedulersTesting` the named
/// `unimplemented(_:)` (beside combine-schedulers that one was never ambiguous: its
/// `unimplemented(_:)` takes only the name, and wins as the closer match).
///
/// ```swift
/// let scheduler = DispatchQueue.test(order: .shuffled(seed: 42))
/// scheduler.now == DispatchQueue.virtualEpoch  // true
/// ```
///
/// A scheduler type of your own whose time type conforms to ``VirtualEpochProviding`` gets the
/// same members by conforming.
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
  public static func test(order: SameInstantOrder) -> TestSchedulerOf<Self> {
    TestScheduler(order: order)
  }
}

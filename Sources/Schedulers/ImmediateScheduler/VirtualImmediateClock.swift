import Synchronization

/// A clock whose sleeps return at once and move its `now` by the time slept.
///
/// For code that takes a `Clock` and measures elapsed time, in tests that want it to run
/// without waiting: the shape of swift-clocks' `ImmediateClock`, under a name of its own (the
/// Composable Architecture re-exports swift-clocks, so the two meet in one file).
///
/// ```swift
/// let clock = VirtualImmediateClock()
/// let start = clock.now
/// try await clock.sleep(for: .seconds(5))  // returns at once
/// #expect(clock.now == start.advanced(by: .seconds(5)))
/// ```
///
/// Sleeps run in no particular order against each other: each returns at once. When the order
/// of sleepers matters, give the code a test scheduler's ``Scheduler/clock`` and advance it.
/// A sleep throws `CancellationError` if its task is cancelled, and never moves `now` back.
public final class VirtualImmediateClock: Clock, Sendable {
  /// An instant of a ``VirtualImmediateClock``: a duration since the clock's origin.
  ///
  /// ```swift
  /// let tenSecondsIn = VirtualImmediateClock.Instant().advanced(by: .seconds(10))
  /// ```
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// The time since the clock's origin.
    public var offset: Duration

    /// The instant `offset` after the clock's origin (the origin itself by default).
    public init(offset: Duration = .zero) { self.offset = offset }

    /// The instant `duration` later (earlier, if negative).
    public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }

    /// The time from this instant to `other` (negative if `other` is earlier).
    public func duration(to other: Self) -> Duration { other.offset - offset }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
  }

  private let current: Mutex<Instant>

  /// A clock that starts at `now` (the origin by default).
  ///
  /// ```swift
  /// let clock = VirtualImmediateClock(now: .init(offset: .seconds(60)))
  /// ```
  public init(now: Instant = Instant()) { current = Mutex(now) }

  /// The current instant: the origin plus every sleep so far.
  public var now: Instant { current.withLock { $0 } }

  /// Zero: a sleep lands exactly on its deadline.
  public var minimumResolution: Duration { .zero }

  /// Moves `now` to `deadline` (if it is later) and returns at once.
  ///
  /// ```swift
  /// try await clock.sleep(until: clock.now.advanced(by: .seconds(1)), tolerance: nil)
  /// ```
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withLock { $0 = max($0, deadline) }
  }
}

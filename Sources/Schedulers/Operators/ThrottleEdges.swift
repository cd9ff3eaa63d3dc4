/// Which edges of a throttle window emit: the element that opens the window, the latest one
/// that arrived during it, or both.
///
/// ```swift
/// // Act on the first tap at once and ignore the rest of the second (RxJS's default).
/// for await tap in taps.throttle(for: .seconds(1), scheduler: scheduler, edges: .leading) {
///   submit(tap)
/// }
/// ```
///
/// A window opens when an element arrives while none is open, and lasts the interval. With a
/// frame of 100 ms and an interval of 400 ms (RxJS 7's `throttleTime` spec):
///
/// ```
/// upstream:   -a-xy-----b--x--cxxx--|
/// .leading:   -a--------b-----c-----|
/// .trailing:  -----y--------x---x---(x|)
/// .both:      -a---y----b---x---x---(x|)
/// ```
///
/// - `.leading` emits the element that opens a window and drops the others until it closes;
///   a finish goes out at once.
/// - `.trailing` emits, when a window closes, the latest element that arrived during it (the
///   one that opened it included), and a new window opens then; a finish waits for that
///   element.
/// - `.both` does both: the first at once, the latest of the rest when the window closes. It is
///   Combine's `throttle(for:scheduler:latest: true)`.
public enum ThrottleEdges: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The first element of each window, at once; the rest are dropped.
  case leading
  /// The latest element of each window, when the window closes.
  case trailing
  /// The first element at once, and the latest of the rest when the window closes.
  case both

  /// Whether the element that opens a window goes out at once.
  @inlinable var emitsLeading: Bool { self != .trailing }
  /// Whether an element held during a window goes out when it closes.
  @inlinable var emitsTrailing: Bool { self != .leading }

  public var description: String {
    switch self {
    case .leading: ".leading"
    case .trailing: ".trailing"
    case .both: ".both"
    }
  }
}

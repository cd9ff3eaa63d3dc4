/// Where a callback-based operator under a marble test sends its output.
///
/// ```swift
/// output.send("a")
/// output.finish()
/// ```
public final class MarbleOutput<Value: Sendable>: Sendable {
  private let record: @Sendable (MarbleEvent<Value>) -> Void

  init(record: @escaping @Sendable (MarbleEvent<Value>) -> Void) { self.record = record }

  /// Records an element at the scheduler's current instant.
  public func send(_ value: Value) { record(.value(value)) }
  /// Records the finish (`|`).
  public func finish() { record(.finished) }
  /// Records a failure (`#`).
  public func fail(_ error: any Error) { record(.failed(error)) }
}

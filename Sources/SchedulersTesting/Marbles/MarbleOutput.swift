import Dispatch
import Schedulers
import Synchronization

/// Where a callback-based operator under a marble test sends its output.
///
/// ```swift
/// output.send("a")
/// output.finish()
/// ```
public final class MarbleOutput<Value: Sendable>: Sendable {
  let recording: MarbleRecording<Value>

  init(recording: MarbleRecording<Value>) { self.recording = recording }

  /// Records an element at the scheduler's current instant.
  public func send(_ value: Value) { recording.record(.value(value)) }
  /// Records the finish (`|`).
  public func finish() { recording.record(.finished) }
  /// Records a failure (`#`).
  public func fail(_ error: any Error) { recording.record(.failed(error)) }
}

import Synchronization

/// A thread-safe log that `@Sendable` actions append to and tests read.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  func append(_ value: Value) { storage.withLock { $0.append(value) } }

  var values: [Value] { storage.withLock { $0 } }

  var count: Int { storage.withLock { $0.count } }
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let storage = Mutex(0)
  func increment() { storage.withLock { $0 += 1 } }
  var value: Int { storage.withLock { $0 } }
}

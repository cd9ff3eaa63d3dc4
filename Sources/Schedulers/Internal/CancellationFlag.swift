import Synchronization

/// A cancellation flag: the cancellable of work that cannot be removed, only skipped.
final class CancellationFlag: Cancellable, Sendable {
  private let flag = Atomic(false)
  var isCancelled: Bool { flag.load(ordering: .acquiring) }
  func cancel() { flag.store(true, ordering: .releasing) }
}

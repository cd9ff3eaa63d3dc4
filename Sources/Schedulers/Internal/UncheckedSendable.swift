/// A value sent across threads on the package's word rather than the compiler's.
///
/// Used only where a protocol's contract makes the value safe to share but its type cannot say
/// so: Combine's `Cancellable` and `Scheduler` are not `Sendable`, yet a cancellable may be
/// cancelled from any thread, and the scheduling methods of a run loop or a Combine scheduler
/// may be called from any thread.
@usableFromInline
package struct UncheckedSendable<Value>: @unchecked Sendable {
  @usableFromInline package let value: Value
  @inlinable package init(_ value: Value) { self.value = value }
}

/// A cancellable kept under a lock and cancelled from another thread. Any cancellable may be
/// (the protocol's contract), though Combine's protocol does not refine `Sendable`.
@usableFromInline
package struct SendableCancellable: Cancellable, @unchecked Sendable {
  @usableFromInline package let base: any Cancellable
  @inlinable package init(_ base: any Cancellable) { self.base = base }
  @inlinable package func cancel() { base.cancel() }
}

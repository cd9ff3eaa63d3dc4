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

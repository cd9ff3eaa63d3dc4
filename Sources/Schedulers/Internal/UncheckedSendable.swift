/// A value sent across threads on the package's word rather than the compiler's.
///
/// Used only where a contract the compiler cannot see makes the value safe to send: Combine's
/// `Cancellable` and `Scheduler` are not `Sendable`, yet a cancellable may be cancelled from
/// any thread, and the scheduling methods of a run loop or a Combine scheduler may be called
/// from any thread; a job (`UnownedJob`) or a task (`UnsafeCurrentTask`) handed to the one
/// thread that runs it next.
@usableFromInline
package struct UncheckedSendable<Value>: @unchecked Sendable {
  @usableFromInline package let value: Value
  @inlinable package init(_ value: Value) { self.value = value }
}

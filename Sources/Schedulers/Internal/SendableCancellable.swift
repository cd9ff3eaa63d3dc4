/// A cancellable kept under a lock and cancelled from another thread. Any cancellable may be
/// (the protocol's contract), though Combine's protocol does not refine `Sendable`.
@usableFromInline
package struct SendableCancellable: Cancellable, @unchecked Sendable {
  @usableFromInline package let base: any Cancellable
  @inlinable package init(_ base: any Cancellable) { self.base = base }
  @inlinable package func cancel() { base.cancel() }
}

// Where Combine can be imported, Combine's `Cancellable` is used instead; see Sources/Schedulers/Combine/.
#if !canImport(Combine)

  /// Something that can be cancelled, such as repeating work returned by
  /// ``Scheduler/schedule(after:interval:tolerance:options:_:)``.
  ///
  /// Cancelling is idempotent and may happen on any thread, including from inside the action
  /// being cancelled. Like Combine's protocol, it does not refine `Sendable`; ``AnyCancellable``
  /// is `Sendable` here (Combine's is not).
  ///
  /// ```swift
  /// let timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { tick() }
  /// timer.cancel()  // no further ticks
  /// ```
  public protocol Cancellable {
    /// Cancels the work. Calling it again does nothing.
    func cancel()
  }

#endif

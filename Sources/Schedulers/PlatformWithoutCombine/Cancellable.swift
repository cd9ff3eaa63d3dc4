// Where Combine can be imported, Combine's `Cancellable` is used instead; see Sources/Schedulers/PlatformWithCombine/.
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

#if !canImport(Combine)
  extension Cancellable {
    /// Stores this cancellable in a set, wrapped in an ``AnyCancellable``, so it lives as long
    /// as the set holds it: Combine's spelling, for a timer as much as a subscription.
    ///
    /// ```swift
    /// var cancellables: Set<AnyCancellable> = []
    /// scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { print("tick") }
    ///   .store(in: &cancellables)
    /// ```
    public func store(in set: inout Set<AnyCancellable>) {
      AnyCancellable(self).store(in: &set)
    }

    /// Stores this cancellable in a collection, wrapped in an ``AnyCancellable``.
    public func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
      AnyCancellable(self).store(in: &collection)
    }
  }
#endif

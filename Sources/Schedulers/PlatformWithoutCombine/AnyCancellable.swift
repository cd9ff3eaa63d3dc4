import Synchronization

// Where Combine can be imported, Combine's `AnyCancellable` is used instead; see Sources/Schedulers/PlatformWithCombine/.
#if !canImport(Combine)

  /// A type-erased cancellable that cancels when it is deallocated.
  ///
  /// Keep it for as long as the work should continue; drop it (or call ``cancel()``) to stop:
  ///
  /// ```swift
  /// var cancellables: Set<AnyCancellable> = []
  /// AnyCancellable(scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { tick() })
  ///   .store(in: &cancellables)
  /// cancellables.removeAll()  // cancels the timer
  /// ```
  ///
  /// Identity is reference identity: two `AnyCancellable` values are equal when they are the
  /// same object.
  public final class AnyCancellable: Cancellable, Hashable, Sendable {
    // The closure is taken out under the lock so that it runs at most once, outside the lock.
    private let cancelAction: Mutex<(@Sendable () -> Void)?>

    /// Creates a cancellable that calls `cancel` once, when cancelled or deallocated.
    public init(_ cancel: @escaping @Sendable () -> Void) {
      cancelAction = Mutex(cancel)
    }

    /// Creates a cancellable that cancels `canceller`, when cancelled or deallocated.
    ///
    /// Inlinable so that the closure is specialised for the caller's concrete type.
    @inlinable
    public convenience init(_ canceller: some Cancellable) {
      // A cancellable may be cancelled from any thread (the protocol's contract), so it may
      // travel into this Sendable closure even when its type does not say so.
      let canceller = SendableCancellable(canceller)
      self.init { canceller.cancel() }
    }

    deinit { cancel() }

    /// Cancels the work. Calling it again does nothing.
    public func cancel() {
      let action = cancelAction.withLock { action in
        defer { action = nil }
        return action
      }
      action?()
    }

    /// Stores this cancellable in a set, so it lives as long as the set holds it.
    public func store(in set: inout Set<AnyCancellable>) {
      set.insert(self)
    }

    /// Stores this cancellable in a collection, so it lives as long as the collection holds it.
    public func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
      collection.append(self)
    }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
  }

#endif

// Stand-ins for `Synchronization.Mutex` and `Synchronization.Atomic`, with the parts of their
// interfaces the package uses, over a pthread mutex. Every module of the package shadows
// `Mutex` and `Atomic` with them (a two-line `PortableSynchronization.swift` in each) where
// either of two things holds:
//
// - Apple platforms. `Mutex` and `Atomic` need the macOS 15 / iOS 18 generation, and the
//   package's floor is macOS 13 / iOS 16 (`Package.swift`). A pthread mutex exists on every
//   Apple OS, so one implementation serves every OS the package supports.
// - The thread-sanitizer run of `.ci/run` (`-Xswiftc -DSCHEDULERS_SANITIZER_VISIBLE_LOCKS`).
//   On Linux, `Mutex` locks with atomics and futex calls inside the prebuilt Synchronization
//   module, which the sanitizer does not instrument: it cannot see that the lock orders the
//   accesses it guards, and reports every contended one as a race. A pthread mutex it
//   understands.
//
// So the sanitizer run, which runs the whole suite, also tests the code Apple platforms run.
// Linux builds otherwise use Synchronization's own types, which are faster.

#if SCHEDULERS_SANITIZER_VISIBLE_LOCKS || os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// A pthread-based mutex with `Synchronization.Mutex`'s interface.
  @usableFromInline
  package struct PortableMutex<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: the value is reached only inside `withLock`, under the lock, as
    // with `Synchronization.Mutex` (which asks the value to be sent in, not to be `Sendable`).
    @usableFromInline let storage: PortableMutexStorage<Value>

    /// Creates a mutex guarding `value`.
    @inlinable package init(_ value: consuming Value) {
      storage = PortableMutexStorage(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<Result, Failure: Error>(
      _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      pthread_mutex_lock(storage.mutex)
      defer { pthread_mutex_unlock(storage.mutex) }
      return try body(&storage.value)
    }
  }

  /// The storage of a ``PortableMutex``.
  @usableFromInline
  package final class PortableMutexStorage<Value> {
    @usableFromInline var value: Value
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline init(_ value: Value) {
      self.value = value
      mutex = .allocate(capacity: 1)
      pthread_mutex_init(mutex, nil)
    }

    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }
  }

  /// A memory ordering, accepted for `Synchronization.Atomic`'s spelling: a ``PortableAtomic``
  /// is always sequentially consistent (it locks), which is at least as strong as any of them.
  package enum PortableAtomicOrdering: Sendable {
    case relaxed, acquiring, releasing, acquiringAndReleasing, sequentiallyConsistent
  }

  /// A value read and written atomically, with `Synchronization.Atomic`'s interface, over a
  /// ``PortableMutex``.
  package struct PortableAtomic<Value: Sendable>: Sendable {
    private let mutex: PortableMutex<Value>

    /// Creates an atomic value.
    package init(_ value: Value) { mutex = PortableMutex(value) }

    /// The value now.
    package func load(ordering: PortableAtomicOrdering) -> Value {
      mutex.withLock { $0 }
    }

    /// Replaces the value.
    package func store(_ value: Value, ordering: PortableAtomicOrdering) {
      mutex.withLock { $0 = value }
    }

    /// Replaces the value, and returns the one it replaced.
    @discardableResult
    package func exchange(_ value: Value, ordering: PortableAtomicOrdering) -> Value {
      mutex.withLock { current in
        defer { current = value }
        return current
      }
    }
  }

  extension PortableAtomic where Value: FixedWidthInteger {
    /// Adds `operand`, wrapping on overflow as `Synchronization.Atomic` does.
    @discardableResult
    package func add(_ operand: Value, ordering: PortableAtomicOrdering) -> (
      oldValue: Value, newValue: Value
    ) {
      mutex.withLock { value in
        let old = value
        value &+= operand
        return (old, value)
      }
    }

    /// Subtracts `operand`, wrapping on overflow as `Synchronization.Atomic` does.
    @discardableResult
    package func subtract(_ operand: Value, ordering: PortableAtomicOrdering) -> (
      oldValue: Value, newValue: Value
    ) {
      add(0 &- operand, ordering: ordering)
    }

    /// Replaces the value with `operand` if `operand` is greater, as `Synchronization.Atomic`
    /// does.
    @discardableResult
    package func max(_ operand: Value, ordering: PortableAtomicOrdering) -> (
      oldValue: Value, newValue: Value
    ) {
      mutex.withLock { value in
        let old = value
        value = Swift.max(value, operand)
        return (old, value)
      }
    }
  }

  @usableFromInline typealias Mutex<Value> = PortableMutex<Value>
  typealias Atomic<Value: Sendable> = PortableAtomic<Value>
#endif

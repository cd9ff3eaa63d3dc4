#if SCHEDULERS_SANITIZER_VISIBLE_LOCKS
  // A stand-in for `Synchronization.Mutex`, compiled only for the thread-sanitizer run of
  // `.ci/run` (`-Xswiftc -DSCHEDULERS_SANITIZER_VISIBLE_LOCKS`).
  //
  // On Linux, `Mutex` locks with atomics and futex calls inside the prebuilt Synchronization
  // module, which the sanitizer does not instrument: it cannot see that the lock orders the
  // accesses it guards, and reports every contended one as a race (28 reports, reproduced in 12
  // lines without this package). This type has `Mutex`'s initialiser and `withLock`, over a
  // pthread mutex that the sanitizer understands; every module of the package shadows `Mutex`
  // with it in that build (see `SanitizerVisibleLocks.swift` in each, a one-line typealias to
  // this one shim, shared with `package` access), and nothing else changes.

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// A pthread-based mutex with `Synchronization.Mutex`'s interface, for sanitizer runs.
  @usableFromInline
  package struct SanitizerVisibleMutex<Value>: @unchecked Sendable {
    @usableFromInline let storage: SanitizerVisibleMutexStorage<Value>

    /// Creates a mutex guarding `value`.
    @inlinable package init(_ value: consuming Value) {
      storage = SanitizerVisibleMutexStorage(value)
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

  /// The storage of a ``SanitizerVisibleMutex``.
  @usableFromInline
  package final class SanitizerVisibleMutexStorage<Value> {
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

  @usableFromInline typealias Mutex<Value> = SanitizerVisibleMutex<Value>
#endif

#if SCHEDULERS_SANITIZER_VISIBLE_LOCKS || os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
  import Schedulers

  // On Apple platforms (below the macOS 15 generation Synchronization's types are missing)
  // and in the thread-sanitizer run, `Mutex` and `Atomic` are pthread-based stand-ins: see
  // `Sources/Schedulers/Internal/PortableSynchronization.swift`.
  typealias Mutex<Value> = PortableMutex<Value>
  typealias Atomic<Value: Sendable> = PortableAtomic<Value>
#endif

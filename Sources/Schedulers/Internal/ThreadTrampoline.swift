#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs actions synchronously without growing the stack when they schedule more actions.
///
/// The first action scheduled on a thread runs at once; actions it schedules (on any
/// immediate scheduler) wait in this thread's queue and run, first-in first-out, as soon as
/// it returns, before the outermost `schedule` call returns. A chain of a million actions
/// that each schedule the next therefore runs in constant stack depth.
///
/// The outermost case is the common one and is inlined into the caller: one thread-local
/// read, two flag writes and the action, with no call into the library (a few nanoseconds).
/// Nested actions take the out-of-line path. The state is a plain allocation per thread,
/// reached through a pthread key; only its own thread touches it, and pointer accesses need no
/// exclusivity checks (a class's properties would cost a runtime check each).
@usableFromInline
enum ThreadTrampoline {
  @usableFromInline
  struct Queue {
    /// Whether an action of this thread's trampoline is running.
    @usableFromInline var isDraining = false
    /// Actions scheduled while one was running, from `head` on.
    @usableFromInline var pending: [@Sendable () -> Void] = []
    @usableFromInline var head = 0
  }

  @inlinable
  static func run(_ action: @escaping @Sendable () -> Void) {
    let queue = current
    if queue.pointee.isDraining { return enqueueNested(action, on: queue) }
    queue.pointee.isDraining = true
    action()
    if queue.pointee.pending.isEmpty {
      queue.pointee.isDraining = false
    } else {
      drain(queue)
    }
  }

  /// This thread's queue, created on first use.
  @inlinable
  static var current: UnsafeMutablePointer<Queue> {
    if let pointer = pthread_getspecific(key) { return pointer.assumingMemoryBound(to: Queue.self) }
    return makeCurrent()
  }

  @usableFromInline
  static func enqueueNested(
    _ action: @escaping @Sendable () -> Void, on queue: UnsafeMutablePointer<Queue>
  ) {
    queue.pointee.pending.append(action)
  }

  /// Runs what the outermost action left, first-in first-out, including what those schedule.
  @usableFromInline
  static func drain(_ queue: UnsafeMutablePointer<Queue>) {
    defer { queue.pointee.isDraining = false }
    while queue.pointee.head < queue.pointee.pending.count {
      let next = queue.pointee.pending[queue.pointee.head]
      queue.pointee.head += 1
      if queue.pointee.head == queue.pointee.pending.count {
        // Keep the buffer small for chains, where one action is pending at a time.
        queue.pointee.pending.removeAll(keepingCapacity: true)
        queue.pointee.head = 0
      }
      next()
    }
  }

  @usableFromInline
  static func makeCurrent() -> UnsafeMutablePointer<Queue> {
    let queue = UnsafeMutablePointer<Queue>.allocate(capacity: 1)
    queue.initialize(to: Queue())
    pthread_setspecific(key, queue)
    return queue
  }

  @usableFromInline
  static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { pointer in
      #if canImport(Darwin)
        let queue = pointer.assumingMemoryBound(to: Queue.self)
      #else
        guard let queue = pointer?.assumingMemoryBound(to: Queue.self) else { return }
      #endif
      queue.deinitialize(count: 1)
      queue.deallocate()
    }
    precondition(status == 0, "VirtualImmediateScheduler: pthread_key_create failed with \(status)")
    return key
  }()
}

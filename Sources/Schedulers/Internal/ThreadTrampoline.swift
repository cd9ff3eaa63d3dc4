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
/// One trampoline per thread, reached through a pthread key: only its own thread touches it.
final class ThreadTrampoline {
  private var pending: [@Sendable () -> Void] = []
  private var head = 0
  private var isDraining = false

  static func run(_ action: @escaping @Sendable () -> Void) {
    current.run(action)
  }

  private func run(_ action: @escaping @Sendable () -> Void) {
    if isDraining {
      pending.append(action)
      return
    }
    isDraining = true
    defer { isDraining = false }
    action()
    while head < pending.count {
      let next = pending[head]
      head += 1
      if head == pending.count {
        // Keep the buffer small for chains, where one action is pending at a time.
        pending.removeAll(keepingCapacity: true)
        head = 0
      }
      next()
    }
  }

  private static var current: ThreadTrampoline {
    if let pointer = pthread_getspecific(key) {
      return Unmanaged<ThreadTrampoline>.fromOpaque(pointer).takeUnretainedValue()
    }
    let trampoline = ThreadTrampoline()
    pthread_setspecific(key, Unmanaged.passRetained(trampoline).toOpaque())
    return trampoline
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { pointer in
      #if canImport(Darwin)
        Unmanaged<ThreadTrampoline>.fromOpaque(pointer).release()
      #else
        if let pointer { Unmanaged<ThreadTrampoline>.fromOpaque(pointer).release() }
      #endif
    }
    precondition(status == 0, "VirtualImmediateScheduler: pthread_key_create failed with \(status)")
    return key
  }()
}

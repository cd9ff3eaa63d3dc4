#if SCHEDULERS_SANITIZER_VISIBLE_LOCKS
  import Schedulers

  // In the thread-sanitizer run, `Mutex` is a pthread mutex the sanitizer can see; see
  // `Sources/Schedulers/Internal/SanitizerVisibleMutex.swift`.
  typealias Mutex<Value> = SanitizerVisibleMutex<Value>
#endif

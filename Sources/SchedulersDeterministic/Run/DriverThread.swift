#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Starts a thread with a stack large enough for deep synchronous code in jobs.
func startDriverThread(_ body: @escaping @Sendable () -> Void) {
  final class Box {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  pthread_attr_setstacksize(&attributes, 8 << 20)
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let status = pthread_create(
    &thread, &attributes,
    { pointer in
      #if canImport(Darwin)
        Unmanaged<Box>.fromOpaque(pointer).takeRetainedValue().body()
      #else
        Unmanaged<Box>.fromOpaque(pointer!).takeRetainedValue().body()
      #endif
      return nil
    }, Unmanaged.passRetained(Box(body)).toOpaque())
  pthread_attr_destroy(&attributes)
  precondition(
    status == 0, "Deterministic execution: could not start its driver thread (\(status))")
  #if canImport(Darwin)
    pthread_detach(thread!)
  #else
    pthread_detach(thread)
  #endif
}

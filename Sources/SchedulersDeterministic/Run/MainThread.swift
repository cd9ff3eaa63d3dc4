import Dispatch

/// Marks the main queue, so that code can tell it runs there.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Whether the calling code runs on the main queue (as main-actor code, or a task that an
/// executor hook sent there): a run driven from it must not wait on `DispatchQueue.main.sync`,
/// which would wait on the queue it is running.
func isOnTheMainQueue() -> Bool {
  DispatchQueue.getSpecific(key: mainQueueKey) == true
}

// GraphQLSwift/DataLoader PR 27 (first released in 2.3.2). The loader's `Channel` actor kept
// its result and waiters in a second actor, `State`, and `fulfill` awaited it four times:
// read the result, set it, read the waiters and resume them, then remove all waiters. A
// reader's `value` ran in a `Task` that asked `State` for the result and, finding none,
// appended its continuation. A reader that looked before the result was set and appended
// after the waiters were read was removed without being resumed: a continuation leaked
// ("SWIFT TASK CONTINUATION MISUSE"), its reader suspended for good. Symptom: a hang. The fix
// keeps the state in `Channel` itself, so `fulfill` never suspends.
//
// The window needs `fulfill` to be suspended between two of its hops to `State`. In a
// deterministic run, a hop onto an idle actor runs in place, with no job, so there is no such
// moment and the interleaving cannot be reached as the original was written. On a thread pool,
// the reader's task can be inside `State` when `fulfill` hops there, and the hop waits. The
// reconstruction makes each access to `State` a real suspension (a yield first), which stands
// for that wait.

actor LoaderState {
  var waiters: [CheckedContinuation<Int, Never>] = []
  var result: Int?
  func readResult() async -> Int? {
    await Task.yield()
    return result
  }
  func setResult(_ value: Int) async {
    await Task.yield()
    result = value
  }
  func readWaiters() async -> [CheckedContinuation<Int, Never>] {
    await Task.yield()
    return waiters
  }
  func append(_ waiter: CheckedContinuation<Int, Never>) async {
    await Task.yield()
    waiters.append(waiter)
  }
  func removeAllWaiters() async {
    await Task.yield()
    waiters.removeAll()
  }
}

/// The loader's one-result channel, with its state in another actor (buggy) or in itself.
public actor ModelLoaderChannel {
  private let state = LoaderState()
  private let version: Version
  private var waiters: [CheckedContinuation<Int, Never>] = []
  private var result: Int?

  public init(_ version: Version) { self.version = version }

  public func fulfill(_ value: Int) async {
    switch version {
    case .buggy:
      guard await state.readResult() == nil else { return }
      await state.setResult(value)
      for waiter in await state.readWaiters() { waiter.resume(returning: value) }
      await state.removeAllWaiters()
    case .fixed:
      guard result == nil else { return }
      result = value
      while let waiter = waiters.popLast() { waiter.resume(returning: value) }
    }
  }

  public var value: Int {
    get async {
      await withCheckedContinuation { continuation in
        Task { await self.answer(continuation) }
      }
    }
  }

  private func answer(_ continuation: CheckedContinuation<Int, Never>) async {
    switch version {
    case .buggy:
      if let result = await state.readResult() {
        continuation.resume(returning: result)
      } else {
        await state.append(continuation)
      }
    case .fixed:
      if let result {
        continuation.resume(returning: result)
      } else {
        waiters.append(continuation)
      }
    }
  }
}

/// GraphQLSwift/DataLoader PR 27's program: a reader and a writer a few round trips late (so the
/// first-in first-out run has the reader registered first).
public func readWhatALoaderFulfils(_ version: Version) async -> Int {
  let channel = ModelLoaderChannel(version)
  let writer = Task {
    for _ in 0..<6 { await Task.yield() }
    await channel.fulfill(7)
  }
  let value = await channel.value
  await writer.value
  return value
}

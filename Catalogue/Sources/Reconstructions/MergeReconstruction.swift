import Synchronization

// apple/swift-async-algorithms issue 249, fixed by apple/swift-async-algorithms PR 250 (first
// released in 0.1.0). Since 0.0.4, `merge` (and `zip`, `combineLatest`, `debounce`) made the task
// that iterates its bases at the first `next()`, not when its iterator was made. A `next()` whose
// task was already cancelled runs its cancellation handler before anything else, and the state
// machine's handler, still in `.initial`, took that for an impossible state: `preconditionFailure`.
// Symptom: a crash, when a task that iterates a merge is cancelled before it gets to its first
// `next()`. First in, first out, the iterating task starts before the one that cancels it; only the
// other order crashes. The fix treats a cancel in `.initial` as the end.

/// The merge of a few `AsyncStream<Int>`s, with its bases' task made at the first `next()`.
public final class ModelMerge: Sendable {
  enum State {
    case initial
    case merging(
      task: Task<Void, Never>, buffer: [Int], waiting: CheckedContinuation<Int?, Never>?,
      running: Int)
    case finished
  }
  private let bases: [AsyncStream<Int>]
  private let version: Version
  private let state = Mutex(State.initial)

  public init(_ bases: [AsyncStream<Int>], _ version: Version) {
    self.bases = bases
    self.version = version
  }

  public func next() async -> Int? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
        let resumption = state.withLock { state -> (() -> Void)? in
          switch state {
          case .initial:
            state = .merging(
              task: startIterating(), buffer: [], waiting: continuation, running: bases.count)
            return nil
          case .merging(let task, var buffer, _, let running):
            if !buffer.isEmpty {
              let element = buffer.removeFirst()
              state = .merging(task: task, buffer: buffer, waiting: nil, running: running)
              return { continuation.resume(returning: element) }
            }
            if running == 0 {
              state = .finished
              return { continuation.resume(returning: nil) }
            }
            state = .merging(task: task, buffer: [], waiting: continuation, running: running)
            return nil
          case .finished:
            return { continuation.resume(returning: nil) }
          }
        }
        resumption?()
      }
    } onCancel: {
      cancelled()
    }
  }

  private func startIterating() -> Task<Void, Never> {
    Task { [bases] in
      await withTaskGroup(of: Void.self) { group in
        for base in bases {
          group.addTask {
            for await element in base { self.deliver(element) }
            self.baseFinished()
          }
        }
      }
    }
  }

  private func deliver(_ element: Int) {
    let waiting = state.withLock { state -> CheckedContinuation<Int?, Never>? in
      guard case .merging(let task, var buffer, let waiting, let running) = state else {
        return nil
      }
      if waiting == nil { buffer.append(element) }
      state = .merging(task: task, buffer: buffer, waiting: nil, running: running)
      return waiting
    }
    waiting?.resume(returning: element)
  }

  private func baseFinished() {
    let waiting = state.withLock { state -> CheckedContinuation<Int?, Never>? in
      guard case .merging(let task, let buffer, let waiting, let running) = state else {
        return nil
      }
      if running == 1, buffer.isEmpty, let waiting {
        state = .finished
        return waiting
      }
      state = .merging(task: task, buffer: buffer, waiting: waiting, running: running - 1)
      return nil
    }
    waiting?.resume(returning: nil)
  }

  private func cancelled() {
    let version = self.version
    let (task, waiting) = state.withLock {
      state -> (Task<Void, Never>?, CheckedContinuation<Int?, Never>?) in
      switch state {
      case .initial:
        if version == .buggy {
          preconditionFailure(
            "Internal inconsistency current state \(state) and received cancelled()")
        }
        state = .finished
        return (nil, nil)
      case .merging(let task, _, let waiting, _):
        state = .finished
        return (task, waiting)
      case .finished:
        return (nil, nil)
      }
    }
    task?.cancel()
    waiting?.resume(returning: nil)
  }
}

/// apple/swift-async-algorithms issue 249's program: a task iterates the merge of two finished
/// streams, and another task cancels it, either before or after its first `next()`. Returns what it
/// received.
public func cancelAMergeAroundItsFirstNext(_ version: Version) async -> [Int] {
  let (first, firstInput) = AsyncStream.makeStream(of: Int.self)
  let (second, secondInput) = AsyncStream.makeStream(of: Int.self)
  firstInput.yield(1)
  firstInput.finish()
  secondInput.finish()
  let iteration = Task {
    let merged = ModelMerge([first, second], version)
    var received: [Int] = []
    while let element = await merged.next() { received.append(element) }
    return received
  }
  let canceller = Task { iteration.cancel() }
  await canceller.value
  return await iteration.value
}

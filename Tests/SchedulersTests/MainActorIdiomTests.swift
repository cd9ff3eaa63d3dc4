import Dispatch
import Schedulers
import Testing

/// A `@MainActor` model updates its state from scheduled actions written `{ @MainActor in }`:
/// no `MainActor.assumeIsolated`, no `@unchecked` at the call site.
@MainActor
final class CountdownModel {
  var secondsLeft: Int
  var message: String?
  private let scheduler: AnySchedulerOf<DispatchQueue>
  private var timer: (any Cancellable)?

  init(from seconds: Int, scheduler: AnySchedulerOf<DispatchQueue>) {
    secondsLeft = seconds
    self.scheduler = scheduler
  }

  func start() {
    timer = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)
    ) { @MainActor [weak self] in
      self?.tick()
    }
  }

  func sendLater(_ text: String) {
    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { @MainActor [weak self] in
      self?.message = text
    }
  }

  func sendNow(_ text: String) {
    scheduler.schedule { @MainActor [weak self] in self?.message = text }
  }

  private func tick() {
    secondsLeft -= 1
    if secondsLeft == 0 {
      timer?.cancel()
      message = "Go!"
    }
  }
}

@MainActor
@Suite("A @MainActor model with an injected scheduler")
struct MainActorIdiomTests {
  @Test func withATestScheduler() {
    let scheduler = DispatchQueue.test
    let model = CountdownModel(from: 3, scheduler: scheduler.eraseToAnyScheduler())
    model.start()
    scheduler.advance(by: .seconds(1))
    #expect(model.secondsLeft == 2)
    scheduler.advance(by: .seconds(1))
    #expect(model.secondsLeft == 1)
    scheduler.advance(by: .seconds(1))
    #expect(model.secondsLeft == 0)
    #expect(model.message == "Go!")
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func withAnImmediateScheduler() {
    let model = CountdownModel(from: 3, scheduler: .immediate)
    model.sendLater("hello")
    #expect(model.message == "hello")
  }

  @Test func withTheMainQueue() async {
    let model = CountdownModel(from: 3, scheduler: .main)
    model.sendNow("hello")
    #expect(model.message == nil)  // the main queue runs it on a later turn
    // Wait for that turn: the main queue is FIFO, so a later job runs after the action.
    await withCheckedContinuation { continuation in
      DispatchQueue.main.async { continuation.resume() }
    }
    #expect(model.message == "hello")
  }

  @Test func withTheMainQueueRunningAtOnce() {
    let model = CountdownModel(from: 3, scheduler: .mainImmediately)
    model.sendNow("hello")
    #expect(model.message == "hello")
  }
}

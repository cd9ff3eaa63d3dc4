import Dispatch
import Schedulers
import Testing

@Suite("AnyCancellable")
struct AnyCancellableTests {
  @Test func cancelsOnceWhenCancelledTwice() {
    let count = Counter()
    let cancellable = AnyCancellable { count.increment() }
    cancellable.cancel()
    cancellable.cancel()
    #expect(count.value == 1)
  }

  @Test func cancelsOnDeinit() {
    let count = Counter()
    do { _ = AnyCancellable { count.increment() } }
    #expect(count.value == 1)
  }

  @Test func storesInASetAndCancelsWhenRemoved() {
    let scheduler = DispatchQueue.test
    let ticks = Counter()
    var cancellables: Set<AnyCancellable> = []
    AnyCancellable(
      scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { ticks.increment() }
    )
    .store(in: &cancellables)
    scheduler.advance(by: .seconds(2))
    #expect(ticks.value == 3)
    cancellables.removeAll()
    scheduler.advance(by: .seconds(2))
    #expect(ticks.value == 3)
  }

  @Test func storesInAnArray() {
    var cancellables: [AnyCancellable] = []
    let count = Counter()
    AnyCancellable { count.increment() }.store(in: &cancellables)
    #expect(count.value == 0)
    cancellables = []
    #expect(count.value == 1)
  }

  @Test func identityIsReferenceIdentity() {
    let first = AnyCancellable {}
    let second = AnyCancellable {}
    #expect(first == first)
    #expect(first != second)
    #expect(Set([first, first, second]).count == 2)
  }

  /// Combine's `store(in:)` is on `Cancellable`, so a timer stores itself, as ported
  /// combine-schedulers code writes it.
  @Test func aTimerStoresItselfAndStopsWhenTheSetIsEmptied() {
    let scheduler = DispatchQueue.test
    let ticks = Counter()
    var cancellables: Set<AnyCancellable> = []
    scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { ticks.increment() }
      .store(in: &cancellables)
    var list: [AnyCancellable] = []
    scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { ticks.increment() }
      .store(in: &list)
    scheduler.advance(by: .seconds(1))
    #expect(ticks.value == 4)
    cancellables.removeAll()
    list.removeAll()
    scheduler.advance(by: .seconds(5))
    #expect(ticks.value == 4)
    #expect(scheduler.pendingActionCount == 0)
  }
}

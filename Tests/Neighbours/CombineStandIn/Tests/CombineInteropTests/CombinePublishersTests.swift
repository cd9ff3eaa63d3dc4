import Combine
import Foundation
import Schedulers
import SchedulersTesting
import Testing

// Combine's operators driven by the package's schedulers, with the outputs combine-schedulers
// 1.2.2's own tests expect (its TestSchedulerTests, ImmediateSchedulerTests and TimerTests,
// ported by changing the import). Runs only in the build with the Combine stand-in.

@Suite("Combine publishers on the package's schedulers")
struct CombinePublishersTests {
  @Test func delayWaitsForTheTestSchedulersClock() {
    var cancellables: Set<AnyCancellable> = []
    let scheduler = DispatchQueue.test
    var value: Int?
    Just(1).delay(for: 1, scheduler: scheduler).sink { value = $0 }.store(in: &cancellables)
    for _ in 1...3 {
      scheduler.advance(by: .milliseconds(250))
      #expect(value == nil)
    }
    scheduler.advance(by: .milliseconds(250))
    #expect(value == 1)
  }

  @Test func delayUntilAnAdvanceTo() {
    var cancellables: Set<AnyCancellable> = []
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    var value: Int?
    Just(1).delay(for: 1, scheduler: scheduler).sink { value = $0 }.store(in: &cancellables)
    scheduler.advance(to: start.advanced(by: .milliseconds(750)))
    #expect(value == nil)
    scheduler.advance(to: start.advanced(by: .milliseconds(1_000)))
    #expect(value == 1)
  }

  @Test func runDrainsALongDelay() {
    var cancellables: Set<AnyCancellable> = []
    let scheduler = DispatchQueue.test
    var value: Int?
    Just(1).delay(for: 1_000_000_000, scheduler: scheduler).sink { value = $0 }
      .store(in: &cancellables)
    scheduler.advance(by: 1_000_000)
    #expect(value == nil)
    scheduler.run()
    #expect(value == 1)
  }

  @Test func aZeroDelaySubscribeOnAndReceiveOnWaitForAnAdvance() {
    var cancellables: Set<AnyCancellable> = []
    let scheduler = DispatchQueue.test
    var values: [String] = []
    Just("delay").delay(for: 0, scheduler: scheduler).sink { values.append($0) }
      .store(in: &cancellables)
    Just("subscribe(on:)").subscribe(on: scheduler).sink { values.append($0) }
      .store(in: &cancellables)
    Just("receive(on:)").receive(on: scheduler).sink { values.append($0) }
      .store(in: &cancellables)
    #expect(values.isEmpty)
    scheduler.advance()
    // All three at the first advance. `subscribe(on:)` takes two turns of the scheduler (the
    // subscription, then the request for a value), so its value comes after `receive(on:)`'s,
    // which was scheduled when `Just` emitted at subscription.
    #expect(values == ["delay", "receive(on:)", "subscribe(on:)"])
  }

  @Test func debounceEmitsOnlyAfterAQuietInterval() {
    var cancellables: Set<AnyCancellable> = []
    let scheduler = DispatchQueue.test
    let queries = PassthroughSubject<String, Never>()
    var searched: [String] = []
    queries.debounce(for: .milliseconds(300), scheduler: scheduler)
      .sink { searched.append($0) }
      .store(in: &cancellables)
    queries.send("s")
    scheduler.advance(by: .milliseconds(100))
    queries.send("sw")
    scheduler.advance(by: .milliseconds(100))
    queries.send("swift")
    scheduler.advance(by: .milliseconds(299))
    #expect(searched.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(searched == ["swift"])
  }

  @Test func throttleEmitsAtMostOncePerInterval() {
    var cancellables: Set<AnyCancellable> = []
    let scheduler = DispatchQueue.test
    let taps = PassthroughSubject<Int, Never>()
    var emitted: [Int] = []
    taps.throttle(for: .seconds(1), scheduler: scheduler, latest: true)
      .sink { emitted.append($0) }
      .store(in: &cancellables)
    taps.send(1)
    scheduler.advance()
    taps.send(2)
    taps.send(3)
    scheduler.advance(by: .seconds(1))
    #expect(emitted == [1, 3])
  }

  @Test func repeatingWorkStoresItselfAndTicksInCombineSchedulersOrder() {
    var cancellables: Set<AnyCancellable> = []
    let scheduler = DispatchQueue.test
    var values: [Int] = []
    scheduler.schedule(after: scheduler.now, interval: 2) { values.append(1) }
      .store(in: &cancellables)
    scheduler.schedule(after: scheduler.now, interval: 1) { values.append(42) }
      .store(in: &cancellables)
    scheduler.advance()
    #expect(values == [1, 42])
    scheduler.advance(by: 2)
    #expect(values == [1, 42, 42, 1, 42])
  }

  @Test func theImmediateSchedulerRunsEveryKindOfWorkAtOnce() {
    let scheduler = DispatchQueue.immediate
    var worked = 0
    scheduler.schedule { worked += 1 }
    scheduler.schedule(after: scheduler.now.advanced(by: 1)) { worked += 1 }
    _ = scheduler.schedule(after: scheduler.now.advanced(by: 1), interval: 1) { worked += 1 }
    #expect(worked == 3)
    var value: Int?
    _ = Just(1).delay(for: 10, scheduler: scheduler).sink { value = $0 }
    #expect(value == 1)
  }

  @Test func theErasedSchedulerDrivesAPipeline() {
    var cancellables: Set<AnyCancellable> = []
    let test = DispatchQueue.test
    let scheduler: AnySchedulerOf<DispatchQueue> = test.eraseToAnyScheduler()
    var value: Int?
    Just(1).delay(for: .seconds(1), scheduler: scheduler).sink { value = $0 }
      .store(in: &cancellables)
    test.advance(by: .seconds(1))
    #expect(value == 1)
  }

  @Test func anUnimplementedSchedulerInAPipelineFailsTheTest() {
    let scheduler: AnySchedulerOf<DispatchQueue> = .unimplemented("FeedModel.scheduler")
    var value: Int?
    withKnownIssue {
      _ = Just(1).receive(on: scheduler).sink { value = $0 }
    } matching: {
      $0.description.contains("Unimplemented scheduler 'FeedModel.scheduler'")
    }
    #expect(value == 1)  // and then it behaved as the immediate scheduler
  }

  @Test func runLoopAndOperationQueueTestSchedulersDrivePipelines() {
    var cancellables: Set<AnyCancellable> = []
    let runLoop = RunLoop.test
    let queue = OperationQueue.test
    var values: [String] = []
    Just("run loop").delay(for: .seconds(1), scheduler: runLoop).sink { values.append($0) }
      .store(in: &cancellables)
    Just("operation queue").delay(for: .seconds(1), scheduler: queue).sink { values.append($0) }
      .store(in: &cancellables)
    runLoop.advance(by: .seconds(1))
    queue.advance(by: .seconds(1))
    #expect(values == ["run loop", "operation queue"])
  }

  @Test func aTimerPublisherTicksWithTheTestScheduler() {
    var cancellables: Set<AnyCancellable> = []
    let scheduler = DispatchQueue.test
    let start = scheduler.now.dispatchTime.uptimeNanoseconds
    var output: [UInt64] = []
    Publishers.Timer(every: 1, scheduler: scheduler)
      .autoconnect()
      .sink { _ in output.append(scheduler.now.dispatchTime.uptimeNanoseconds - start) }
      .store(in: &cancellables)
    scheduler.advance(by: 1)
    #expect(output == [1_000_000_000])
    scheduler.advance(by: 5)
    #expect(output == (1...6).map { UInt64($0) * 1_000_000_000 })
    cancellables.removeAll()
    scheduler.run()
    #expect(output.count == 6)
  }

  @Test func aTimerPublisherCompletesWithPrefix() {
    var cancellables: Set<AnyCancellable> = []
    let scheduler = DispatchQueue.test
    var count = 0
    scheduler.timerPublisher(every: 1).autoconnect().prefix(3)
      .sink { _ in count += 1 }
      .store(in: &cancellables)
    scheduler.advance(by: 1)
    #expect(count == 1)
    scheduler.run()
    #expect(count == 3)
  }
}

import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// The scheduling history: what the code under test asked of its scheduler.
@Suite("RecordingScheduler")
struct RecordingSchedulerTests {
  @Test func aDebounceAskedFor300MillisecondsWithoutDrivingTime() {
    let scheduler = DispatchQueue.test
    let recording = RecordingScheduler(scheduler)
    let debouncer = Debouncer(for: .milliseconds(300), scheduler: recording.eraseToAnyScheduler())
    debouncer.call {}
    let scheduled = recording.history.filter { $0.method == .scheduleCancellable }
    #expect(scheduled.count == 1)
    #expect(scheduled.first?.delay == .milliseconds(300))
    #expect(scheduled.first?.tolerance == .zero)
    #expect(scheduled.first?.at == scheduler.now)
  }

  /// The type's doc example, exactly: the history includes the reads a debouncer makes.
  @Test func theDocExampleHistoryIsExact() {
    let scheduler = DispatchQueue.test
    let recording = RecordingScheduler(scheduler)
    let debouncer = Debouncer(for: .milliseconds(300), scheduler: recording)
    debouncer.call { print("search") }
    #expect(recording.history.map(\.method) == [.now, .minimumTolerance, .scheduleCancellable])
    #expect(recording.history.last?.delay == .milliseconds(300))
  }

  @Test func everyMethodIsRecordedAndForwarded() async throws {
    let scheduler = DispatchQueue.test
    let recording = RecordingScheduler(scheduler)
    let ran = Counter()
    _ = recording.now
    recording.schedule(options: .init(qos: .userInitiated)) { ran.increment() }
    recording.schedule(
      after: scheduler.now.advanced(by: .seconds(1)), tolerance: .milliseconds(5), options: nil
    ) { ran.increment() }
    let timer = recording.schedule(
      after: scheduler.now.advanced(by: .seconds(2)), interval: .seconds(10), tolerance: .zero,
      options: nil
    ) { ran.increment() }
    await scheduler.advance(by: .seconds(2))
    #expect(ran.value == 3)
    timer.cancel()

    let methods = recording.history.map(\.method)
    #expect(methods == [.now, .schedule, .scheduleAfter, .scheduleRepeating])
    #expect(recording.history[1].options?.contains("userInitiated") == true)
    #expect(recording.history[2].delay == .seconds(1))
    #expect(recording.history[2].tolerance == .milliseconds(5))
    #expect(recording.history[3].interval == .seconds(10))
    #expect("\(recording.history[3])" == "scheduleRepeating in 2 s every 10 s tolerance 0 s")

    recording.clearHistory()
    let sleeper = Task { try await recording.sleep(for: .seconds(3), tolerance: nil) }
    try await scheduler.waitForPendingWork(count: 1)
    await scheduler.advance(by: .seconds(3))
    try await sleeper.value
    #expect(recording.history.map(\.method) == [.sleepFor])
    #expect(recording.history.first?.delay == .seconds(3))
  }

  @Test func readsCanBeLeftOut() {
    let recording = RecordingScheduler(DispatchQueue.test, recordsReads: false)
    _ = recording.now
    _ = recording.minimumTolerance
    recording.schedule(after: recording.now) {}
    #expect(recording.history.map(\.method) == [.scheduleAfter])
  }
}

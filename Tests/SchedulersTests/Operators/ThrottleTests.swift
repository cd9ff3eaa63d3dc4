import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// Throttle, in marbles: one frame is 100 ms and the interval 300 ms (three frames).
extension OperatorMarbleTables {
  @Suite("throttle(for:scheduler:latest:)")
  struct ThrottleTests {
    static let frame = DispatchQueue.SchedulerTimeType.Stride.milliseconds(100)

    @Test(
      arguments: [
        // The first element at once; of those too soon, the latest at the end of the interval.
        ("abcd----e---f-g----|", "a--d----e---f--g---|"),
        // An element arriving the full interval after the last emission goes at once.
        ("a--b--c--|", "a--b--c--|"),
        // Finish or failure with an element waiting: both at the end of the interval.
        ("ab|", "a--(b|)"),
        ("ab#", "a--(b#)"),
        // Empty upstreams.
        ("|", "|"),
        ("---#", "---#"),
        // Slower than the interval: everything passes untouched.
        ("a---b---|", "a---b---|"),
        // Faster than the interval: one element per interval, the latest each time.
        ("abcdefgh|", "a--d--g--(h|)"),
        // Simultaneous elements: the first goes at once, the last at the end of the interval.
        ("(abc)---|", "a--c----|"),
      ])
    func latest(input: String, expected: String) async throws {
      try await expectMarbles(input: input, expected: expected, frame: Self.frame) {
        input, scheduler in
        input.throttle(for: .milliseconds(300), scheduler: scheduler, latest: true)
      }
    }

    @Test(
      arguments: [
        ("abcd----e---f-g----|", "a--b----e---f--g---|"),
        ("abc---|", "a--b--|"),
        ("abcdefgh|", "a--b--e--(h|)"),
        ("(abc)---|", "a--b----|"),
        ("ab#", "a--(b#)"),
      ])
    func first(input: String, expected: String) async throws {
      try await expectMarbles(input: input, expected: expected, frame: Self.frame) {
        input, scheduler in
        input.throttle(for: .milliseconds(300), scheduler: scheduler, latest: false)
      }
    }

    @Test func cancellingMidIntervalReleasesEverything() async throws {
      // The first element passes at once; a second waits for the end of the interval when the
      // consumer is cancelled.
      try await expectCancellationMidIntervalReleasesEverything { upstream, scheduler in
        AsyncStream<Int> { continuation in
          continuation.yield(0)
          continuation.finish()
        }.chain(upstream).throttle(for: .seconds(1), scheduler: scheduler, latest: true)
      }
    }
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// This sequence's elements, then `next`'s (a test helper).
  func chain<Next: AsyncSequence & Sendable>(_ next: Next) -> AsyncStream<Element>
  where Next.Element == Element, Next.Failure == Never {
    AsyncStream { continuation in
      let task = Task {
        for await element in self { continuation.yield(element) }
        for await element in next { continuation.yield(element) }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}

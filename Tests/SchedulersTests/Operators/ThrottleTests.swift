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

    /// RxJS 7's `throttleTime` spec, table by table (its frames are ours; `time('----|')` is
    /// 400 ms). Its subscription expectations are checked in `MarbleSubscriptionTests`.
    @Test(
      arguments: [
        // default behavior { leading: true, trailing: false }, throttleTime(5)
        (ThrottleEdges.leading, 5, "-a-x-y----b---x-cx---|", "-a--------b-----c----|"),
        (.leading, 5, "-a--------b-----c----|", "-a--------b-----c----|"),
        // A busy producer: the element at the instant a window closes is still inside it.
        (.leading, 5, "abcdefabcdefabcdefabcdefa|", "a-----a-----a-----a-----a|"),
        (.leading, 5, "-----|", "-----|"),
        (.leading, 10, "-----#", "-----#"),
        (.leading, 30, "|", "|"),
        (.leading, 30, "#", "#"),
        (.leading, 5, "-a--(bc)-------d---------------#", "-a-------------d---------------#"),
        // { leading: true, trailing: true }, throttleTime(4)
        (.both, 4, "-a-xy-----b--x--cxxx--|", "-a---y----b---x---x---(x|)"),
        (.both, 4, "-a--------------------|", "-a--------------------|"),
        // { leading: false, trailing: true }, throttleTime(4)
        (.trailing, 4, "-a-xy-----b--x--cxxx--|", "-----y--------x---x---(x|)"),
        (.trailing, 4, "-a-xy-----b--x--cxx-|", "-----y--------x---x-|"),
        (.trailing, 4, "-a--------------------|", "-----a----------------|"),
      ])
    func rxjsThrottleTime(edges: ThrottleEdges, frames: Int, input: String, expected: String)
      async throws
    {
      try await expectMarbles(input: input, expected: expected, frame: Self.frame) {
        input, scheduler in
        input.throttle(for: .milliseconds(100 * frames), scheduler: scheduler, edges: edges)
      }
    }

    /// Beyond RxJS's tables: the edges at the boundaries this package defines.
    @Test(
      arguments: [
        // A trailing throttle holding the first element instead of the latest.
        (ThrottleEdges.trailing, false, "abc----d-|", "---a------(d|)"),
        // A trailing element waits, and a failure goes out right after it.
        (.trailing, true, "ab#", "---(b#)"),
        // A leading throttle drops what is held when the upstream finishes.
        (.leading, true, "ab|", "a-|"),
        // After a trailing emission a window opens; one with nothing in it closes silently,
        // and the next element opens a new one.
        (.trailing, true, "a------b--|", "---a------(b|)"),
        // An element at the instant a window closes is inside it: it goes out then.
        (.trailing, true, "a-----b---|", "---a--b---|"),
        // `.both` with `latest: false` is Combine's `latest: false`.
        (.both, false, "abcd----e---f-g----|", "a--b----e---f--g---|"),
      ])
    func edgeChoices(edges: ThrottleEdges, latest: Bool, input: String, expected: String)
      async throws
    {
      try await expectMarbles(input: input, expected: expected, frame: Self.frame) {
        input, scheduler in
        input.throttle(
          for: .milliseconds(300), scheduler: scheduler, edges: edges, latest: latest)
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

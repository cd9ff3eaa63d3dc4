import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// Delay, in marbles: one frame is 100 ms and the interval 300 ms (three frames).
extension OperatorMarbleTables {
  @Suite("delay(for:scheduler:)")
  struct DelayTests {
    static let frame = DispatchQueue.SchedulerTimeType.Stride.milliseconds(100)

    @Test(
      arguments: [
        // Everything shifts three frames later, the finish included.
        ("ab--c--|", "---ab--c--|"),
        // A failure is delayed too, after the elements before it.
        ("a-#", "---a-#"),
        // Empty upstreams.
        ("|", "---|"),
        ("#", "---#"),
        // Simultaneous elements stay simultaneous and in order.
        ("(ab)-|", "---(ab)-|"),
        // Faster than the interval: nothing is dropped.
        ("abcdef|", "---abcdef|"),
        // An upstream that never finishes.
        ("a-b", "---a-b"),
      ])
    func marbles(input: String, expected: String) async throws {
      try await expectMarbles(input: input, expected: expected, frame: Self.frame) {
        input, scheduler in
        input.delay(for: .milliseconds(300), scheduler: scheduler)
      }
    }

    @Test func aZeroDelayKeepsTheTimeline() async throws {
      try await expectMarbles(input: "a-(bc)-|", expected: "a-(bc)-|", frame: Self.frame) {
        input, scheduler in
        input.delay(for: .zero, scheduler: scheduler)
      }
    }

    @Test func cancellingMidIntervalReleasesEverything() async throws {
      try await expectCancellationMidIntervalReleasesEverything { upstream, scheduler in
        upstream.delay(for: .seconds(1), scheduler: scheduler)
      }
    }
  }
}

import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// Debounce, in marbles: one frame is 100 ms and the interval 300 ms (three frames).
extension OperatorMarbleTables {
  @Suite("debounce(for:scheduler:)")
  struct DebounceTests {
    static let frame = DispatchQueue.SchedulerTimeType.Stride.milliseconds(100)

    @Test(
      arguments: [
        // The issue's example: quiet for three frames emits the latest element.
        ("abcd----e---f-g----|", "------d----e-----g-|"),
        // Finish with an element waiting: it is emitted at once, then the finish.
        ("ab-|", "---(b|)"),
        // Failure with an element waiting: the element is dropped.
        ("ab-#", "---#"),
        // Empty upstreams.
        ("|", "|"),
        ("----|", "----|"),
        ("#", "#"),
        // An upstream slower than the interval passes every element, each three frames late.
        ("a----b----|", "---a----b-|"),
        // An upstream faster than the interval emits only its last element, at the finish.
        ("abcdefgh|", "--------(h|)"),
        // An element arriving at the very instant the wait ends restarts it.
        ("a--b----|", "------b-|"),
        // An upstream that never finishes: the last element still comes out.
        ("a-b", "-----b"),
        // Simultaneous elements: the last of the group counts.
        ("(ab)------|", "---b------|"),
      ])
    func marbles(input: String, expected: String) async throws {
      try await expectMarbles(input: input, expected: expected, frame: Self.frame) {
        input, scheduler in
        input.debounce(for: .milliseconds(300), scheduler: scheduler)
      }
    }

    @Test func aZeroIntervalPassesElementsAtTheirInstant() async throws {
      try await expectMarbles(input: "a-b-|", expected: "a-b-|", frame: Self.frame) {
        input, scheduler in
        input.debounce(for: .zero, scheduler: scheduler)
      }
    }

    @Test func worksThroughAnyScheduler() async throws {
      try await expectMarbles(input: "ab---c|", expected: "----b-(c|)", frame: Self.frame) {
        input, scheduler in
        input.debounce(for: .milliseconds(300), scheduler: scheduler.eraseToAnyScheduler())
      }
    }

    @Test func cancellingMidIntervalReleasesEverything() async throws {
      try await expectCancellationMidIntervalReleasesEverything { upstream, scheduler in
        upstream.debounce(for: .seconds(1), scheduler: scheduler)
      }
    }
  }
}

import Dispatch
import Schedulers
import SchedulersTesting

// The AsyncSequence operators, each driven the same way: `size` elements 2 ms apart through a
// 1 ms operator on a test scheduler in a deterministic run, so every element passes. The cost
// of one element through the operator, its upstream task and its timer, on virtual time.

extension Workload {
  /// `debounce(for:scheduler:)`.
  public static let debounce = operatorWorkload(
    name: "debounce",
    summary: "debounce on TestScheduler in a deterministic run: n elements, each passes"
  ) { $0.debounce(for: .milliseconds(1), scheduler: $1) }

  /// `delay(for:scheduler:)`.
  public static let delay = operatorWorkload(
    name: "delay", summary: summary("delay(for:)")
  ) { $0.delay(for: .milliseconds(1), scheduler: $1) }

  /// `throttle(for:scheduler:latest:)`, keeping the latest element.
  public static let throttle = operatorWorkload(
    name: "throttle", summary: summary("throttle(latest: true)")
  ) { $0.throttle(for: .milliseconds(1), scheduler: $1, latest: true) }

  /// `collect(.byTime)`: each 1 ms window holds one element, so n windows come out.
  public static let collect = operatorWorkload(
    name: "collect", summary: summary("collect(.byTime) into 1 ms windows")
  ) { $0.collect(.byTime($1, .milliseconds(1))) }

  /// `measureInterval(using:)`.
  public static let measureInterval = operatorWorkload(
    name: "measure-interval", summary: summary("measureInterval(using:)")
  ) { $0.measureInterval(using: $1) }

  /// `timeout(_:scheduler:)` of 10 ms, never reached.
  public static let timeout = operatorWorkload(
    name: "timeout", summary: summary("timeout(_:) of 10 ms, never reached")
  ) { $0.timeout(.milliseconds(10), scheduler: $1) }

  static func summary(_ what: String) -> String {
    "\(what) on TestScheduler in a deterministic run: n elements, each passes"
  }

  /// A workload that sends `size` elements 2 ms apart through `operator`, built on the upstream
  /// and a test scheduler, inside a deterministic run, advancing after each; it counts what
  /// comes out. The Benchmarks package drives its peers' operators (on `scheduler.clock`) with it.
  public static func operatorWorkload<Output: AsyncSequence & Sendable>(
    name: String, summary: String,
    _ operator: @escaping @Sendable (AsyncStream<Int>, TestSchedulerOf<DispatchQueue>) -> Output
  ) -> Workload where Output.Element: Sendable {
    Workload(name: name, summary: summary, largestSize: 100_000) { (size: Int) async -> Int in
      let scheduler = DispatchQueue.test
      let received = AtomicTally()
      try? await withDeterministicExecution(scheduler: scheduler) {
        let (upstream, continuation) = AsyncStream<Int>.makeStream()
        let consumer = Task {
          do {
            for try await _ in `operator`(upstream, scheduler) { received.increment() }
          } catch {}
        }
        for element in 0..<size {
          continuation.yield(element)
          await scheduler.advance(by: .milliseconds(2))
        }
        continuation.finish()
        await scheduler.advance(by: .milliseconds(2))  // delay finishes one interval late
        await consumer.value
      }
      return received.count
    }
  }
}

import Dispatch
import Schedulers
import SchedulersDeterministic

// The AsyncSequence operators beside debounce, each driven as `debounce` is: `size` elements
// 2 ms apart through a 1 ms operator on a test scheduler in a deterministic run, so every
// element passes. The cost of one element through the operator, its upstream task and its
// timer, on virtual time.

extension Workload {
  public static let delay = operatorWorkload("delay", "delay(for:)") {
    $0.delay(for: .milliseconds(1), scheduler: $1)
  }

  public static let throttle = operatorWorkload("throttle", "throttle(latest: true)") {
    $0.throttle(for: .milliseconds(1), scheduler: $1, latest: true)
  }

  // Each 1 ms window holds one element: n windows come out.
  public static let collect = operatorWorkload("collect", "collect(.byTime) into 1 ms windows") {
    $0.collect(.byTime($1, .milliseconds(1)))
  }

  public static let measureInterval = operatorWorkload(
    "measure-interval", "measureInterval(using:)"
  ) {
    $0.measureInterval(using: $1)
  }

  public static let timeout = operatorWorkload("timeout", "timeout(_:) of 10 ms, never reached") {
    $0.timeout(.milliseconds(10), scheduler: $1)
  }

  static func operatorWorkload<Output: AsyncSequence & Sendable>(
    _ name: String, _ what: String,
    _ operator: @escaping @Sendable (AsyncStream<Int>, TestSchedulerOf<DispatchQueue>) -> Output
  ) -> Workload where Output.Element: Sendable {
    Workload(
      name: name,
      summary: "\(what) on TestScheduler in a deterministic run: n elements, each passes",
      largestSize: 100_000
    ) { (size: Int) async -> Int in
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

import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// A value that counts its own releases.
final class Token: Sendable {
  let releases: Counter
  init(releases: Counter) { self.releases = releases }
  deinit { releases.increment() }
}

/// After an operator's iteration ends (finished, cancelled mid-interval, or abandoned by
/// leaving the loop), nothing it held survives: every element is released, the upstream is
/// terminated, and no timer is left on the scheduler.
@Suite("Operators release everything")
struct OperatorLeakTests {
  static let operators = [
    "debounce", "throttle", "throttle-leading", "throttle-trailing", "delay", "timeout",
    "timeout-custom-error", "collect", "measureInterval",
  ]

  /// Iterates the named operator over `upstream` directly (no wrapper, so that leaving the
  /// loop releases the operator's own iterator), optionally leaving after the first element.
  static func iterate(
    _ name: String, _ upstream: AsyncStream<Token>, _ scheduler: TestSchedulerOf<DispatchQueue>,
    leaveAtFirst: Bool
  ) async throws {
    switch name {
    case "debounce":
      for await _ in upstream.debounce(for: .seconds(1), scheduler: scheduler) {
        if leaveAtFirst { break }
      }
    case "throttle":
      for await _ in upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true) {
        if leaveAtFirst { break }
      }
    case "throttle-leading":
      for await _ in upstream.throttle(for: .seconds(1), scheduler: scheduler, edges: .leading) {
        if leaveAtFirst { break }
      }
    case "throttle-trailing":
      for await _ in upstream.throttle(for: .seconds(1), scheduler: scheduler, edges: .trailing) {
        if leaveAtFirst { break }
      }
    case "delay":
      for await _ in upstream.delay(for: .seconds(1), scheduler: scheduler) {
        if leaveAtFirst { break }
      }
    case "timeout-custom-error":
      for try await _ in upstream.timeout(
        .seconds(10), scheduler: scheduler, customError: { CancellationError() })
      {
        if leaveAtFirst { break }
      }
    case "collect":
      for await _ in upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 1)) {
        if leaveAtFirst { break }
      }
    case "measureInterval":
      for await _ in upstream.measureInterval(using: scheduler) {
        if leaveAtFirst { break }
      }
    default:
      for try await _ in upstream.timeout(.seconds(10), scheduler: scheduler) {
        if leaveAtFirst { break }
      }
    }
  }

  @Test(arguments: operators)
  func cancelledMidInterval(name: String) async throws {
    let scheduler = DispatchQueue.test
    let releases = Counter()
    let terminated = Counter()
    try await withDeterministicExecution(scheduler: scheduler) {
      let (upstream, continuation) = AsyncStream<Token>.makeStream()
      continuation.onTermination = { _ in terminated.increment() }
      let consumer = Task {
        try await Self.iterate(name, upstream, scheduler, leaveAtFirst: false)
      }
      await scheduler.advance()
      for _ in 0..<3 { continuation.yield(Token(releases: releases)) }
      await scheduler.advance(by: .milliseconds(500))
      consumer.cancel()
      _ = await consumer.result
      await scheduler.advance()
    }
    #expect(releases.value == 3, "\(name) kept an element")
    #expect(terminated.value == 1, "\(name) left its upstream running")
    #expect(scheduler.pendingActionCount == 0, "\(name) left a timer")
  }

  @Test(arguments: operators)
  func abandonedByLeavingTheLoop(name: String) async throws {
    let scheduler = DispatchQueue.test
    let releases = Counter()
    let terminated = Counter()
    try await withDeterministicExecution(scheduler: scheduler) {
      let (upstream, continuation) = AsyncStream<Token>.makeStream()
      continuation.onTermination = { _ in terminated.increment() }
      let consumer = Task {
        try await Self.iterate(name, upstream, scheduler, leaveAtFirst: true)
      }
      await scheduler.advance()
      for _ in 0..<3 { continuation.yield(Token(releases: releases)) }
      await scheduler.advance(by: .seconds(2))
      _ = await consumer.result
      await scheduler.advance()
    }
    #expect(releases.value == 3, "\(name) kept an element")
    #expect(terminated.value == 1, "\(name) left its upstream running")
    #expect(scheduler.pendingActionCount == 0, "\(name) left a timer")
  }
}

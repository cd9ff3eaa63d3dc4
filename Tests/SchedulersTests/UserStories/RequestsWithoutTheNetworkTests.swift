import Schedulers
import SchedulersTesting
import Testing

// A client builds requests and sends them through an injected transport; it gives up after
// 10 s of its scheduler's time. The test stubs the transport and answers on the test
// scheduler: the request it built is checked as a value, a slow answer is a matter of
// advancing, and an answer that never comes fails the test at once, naming what was pending,
// instead of after an expectation's real-time timeout.

/// A request as the client builds it, before any networking type gets involved.
struct WeatherRequest: Equatable, Sendable {
  var method: String
  var path: String
  var query: [String: String]
  var headers: [String: String]
}

/// What a transport answers.
struct WeatherResponse: Equatable, Sendable {
  var status: Int
  var body: String
}

/// What the client needs of the network: production passes one over URLSession.
protocol WeatherTransport: Sendable {
  func send(_ request: WeatherRequest) async throws -> WeatherResponse
}

struct WeatherError: Error, Equatable {
  let status: Int
}

/// The code under test.
struct WeatherClient: Sendable {
  let transport: any WeatherTransport
  let scheduler: AnySchedulerOf<DispatchQueue>

  func forecast(for city: String) async throws -> String {
    let request = WeatherRequest(
      method: "GET", path: "/v1/forecast", query: ["city": city],
      headers: ["Accept": "application/json"])
    let response = try await withTimeout(.seconds(10), scheduler: scheduler) {
      try await transport.send(request)
    }
    guard response.status == 200 else { throw WeatherError(status: response.status) }
    return response.body
  }
}

/// A transport the test controls: it records every request and answers after `latency` of the
/// test scheduler's time, or, when `answer` is `nil`, never (until cancelled).
actor StubWeatherTransport: WeatherTransport {
  private(set) var requests: [WeatherRequest] = []
  let scheduler: TestSchedulerOf<DispatchQueue>
  let latency: DispatchQueue.SchedulerTimeType.Stride
  let answer: WeatherResponse?

  init(
    scheduler: TestSchedulerOf<DispatchQueue>, latency: DispatchQueue.SchedulerTimeType.Stride,
    answer: WeatherResponse?
  ) {
    self.scheduler = scheduler
    self.latency = latency
    self.answer = answer
  }

  func send(_ request: WeatherRequest) async throws -> WeatherResponse {
    requests.append(request)
    guard let answer else {
      // A server that never answers: sleeps for a day, which no test advances to.
      try await scheduler.sleep(for: .seconds(86_400))
      throw CancellationError()
    }
    try await scheduler.sleep(for: latency)
    return answer
  }
}

extension AsyncStories {
  @Suite("Requests and integration tests without the network")
  struct RequestsWithoutTheNetworkTests {
    @Test func theClientBuildsTheRequestItSends() async throws {
      let scheduler = DispatchQueue.test
      let transport = StubWeatherTransport(
        scheduler: scheduler, latency: .zero, answer: WeatherResponse(status: 200, body: "sun"))
      try await withDeterministicExecution(scheduler: scheduler) {
        let client = WeatherClient(transport: transport, scheduler: scheduler.eraseToAnyScheduler())
        let forecast = Task { try await client.forecast(for: "Paris") }
        await scheduler.advance()
        let value = try await forecast.value
        #expect(value == "sun")
        #expect(
          await transport.requests == [
            WeatherRequest(
              method: "GET", path: "/v1/forecast", query: ["city": "Paris"],
              headers: ["Accept": "application/json"])
          ])
      }
    }

    @Test func aSlowResponseIsAnsweredByAdvancing() async throws {
      let scheduler = DispatchQueue.test
      let transport = StubWeatherTransport(
        scheduler: scheduler, latency: .seconds(2),
        answer: WeatherResponse(status: 200, body: "rain"))
      try await withDeterministicExecution(scheduler: scheduler) {
        let client = WeatherClient(transport: transport, scheduler: scheduler.eraseToAnyScheduler())
        let result = Recorder<String>()
        let forecast = Task { result.append(try await client.forecast(for: "Oslo")) }

        await scheduler.advance(by: .milliseconds(1_999))
        #expect(result.values.isEmpty)  // still in flight
        await scheduler.advance(by: .milliseconds(1))
        #expect(result.values == ["rain"])
        try await forecast.value
      }
    }

    @Test func aServerErrorIsThrownAsTheClientsError() async throws {
      let scheduler = DispatchQueue.test
      let transport = StubWeatherTransport(
        scheduler: scheduler, latency: .seconds(1), answer: WeatherResponse(status: 503, body: ""))
      try await withDeterministicExecution(scheduler: scheduler) {
        let client = WeatherClient(transport: transport, scheduler: scheduler.eraseToAnyScheduler())
        let forecast = Task { try await client.forecast(for: "Rome") }
        await scheduler.advance(by: .seconds(1))
        await #expect(throws: WeatherError(status: 503)) { try await forecast.value }
      }
    }

    @Test func aResponseThatNeverComesTimesOutAfterTenSecondsOfVirtualTime() async throws {
      let scheduler = DispatchQueue.test
      let transport = StubWeatherTransport(scheduler: scheduler, latency: .zero, answer: nil)
      try await withDeterministicExecution(scheduler: scheduler) {
        let client = WeatherClient(transport: transport, scheduler: scheduler.eraseToAnyScheduler())
        let forecast = Task { try await client.forecast(for: "Lima") }
        await scheduler.advance(by: .seconds(10))
        await #expect(throws: TimeoutError()) { try await forecast.value }
        #expect(scheduler.pendingActionCount == 0)  // the stub's sleep was cancelled with it
      }
    }

    /// The mistake: awaiting the client without advancing. The run sees that nothing can make
    /// progress, fails the test at once, and names what was pending and where it came from.
    @Test func aResponseThatNeverComesFailsAtOnceNamingWhatWasPending() async throws {
      let scheduler = DispatchQueue.test
      let transport = StubWeatherTransport(scheduler: scheduler, latency: .zero, answer: nil)
      try await withKnownIssue {
        try await withDeterministicExecution(scheduler: scheduler) {
          let client = WeatherClient(
            transport: transport, scheduler: scheduler.eraseToAnyScheduler())
          _ = try await client.forecast(for: "Quito")  // nobody advances
        }
      } matching: { issue in
        issue.description.contains("deadlocked")
          && issue.description.contains("Pending: 2 on the test scheduler")
          && issue.description.contains("an action, due in 10 s, scheduled at")
          && issue.description.contains("RequestsWithoutTheNetworkTests.swift")
          && issue.description.contains("an action, due in 86400 s")
      }
    }
  }
}

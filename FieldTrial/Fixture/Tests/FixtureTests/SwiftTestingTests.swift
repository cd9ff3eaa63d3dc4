import Dispatch
import Fixture
import Testing

actor MockTokenService: TokenService {
  private var issued = 0
  func newToken() -> String {
    issued += 1
    return "token \(issued)"
  }
}

/// Expected: exploring finds the second refresh (the two requests meet between the check and
/// the act), with a seed that replays it.
@Test func twoRequestsRefreshTheTokenOnce() async {
  let session = Session(service: MockTokenService())
  let client = APIClient(session: session)
  async let first = client.send("/profile")
  async let second = client.send("/settings")
  _ = await (first, second)
  #expect(await session.refreshes == 1)
}

/// Expected: passes every schedule.
@Test func twoRequestsShareOneRefresh() async {
  let session = SharedRefreshSession(service: MockTokenService())
  let client = APIClient(session: session)
  async let first = client.send("/profile")
  async let second = client.send("/settings")
  _ = await (first, second)
  #expect(await session.refreshes == 1)
}

/// Expected: cannot run deterministically (it measures real time, which a deterministic run's
/// sleep does not take).
@Test func aSleepTakesRealTime() async throws {
  let start = ContinuousClock.now
  try await Task.sleep(for: .seconds(3))
  #expect(ContinuousClock.now - start >= .seconds(3))
}

/// Expected: passes every schedule. The queue's callback comes from outside the run, 200 ms
/// later: longer than a run waits (100 ms) before it believes a deadlock, shorter than it waits
/// in an explored suite (2 s), whose tests wait on queues of their own.
@Test func aCallbackFromADispatchQueue() async {
  let value = await withCheckedContinuation { continuation in
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) {
      continuation.resume(returning: 42)
    }
  }
  #expect(value == 42)
}

/// Expected: not explored (not async).
@Test func aSynchronousTest() {
  #expect(1 + 1 == 2)
}

/// Expected: passes every schedule. The task it leaves behind sleeps on after the test (as
/// swift-clocks' testSleepUntilExactlyNow's does): the test's own business, a note on standard
/// error, not a failure.
@Test func aTaskLeftBehind() async {
  Task { try await Task.sleep(for: .seconds(1)) }
  #expect(Bool(true))
}

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
  try await Task.sleep(for: .milliseconds(20))
  #expect(ContinuousClock.now - start >= .milliseconds(20))
}

/// Expected: passes every schedule: the queue's callback comes from outside the run, within
/// the time the run waits for outside work.
@Test func aCallbackFromADispatchQueue() async {
  let value = await withCheckedContinuation { continuation in
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) {
      continuation.resume(returning: 42)
    }
  }
  #expect(value == 42)
}

/// Expected: not explored (not async).
@Test func aSynchronousTest() {
  #expect(1 + 1 == 2)
}

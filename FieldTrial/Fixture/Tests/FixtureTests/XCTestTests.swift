import Fixture
import XCTest

final class SessionXCTests: XCTestCase {
  /// Expected: exploring finds the second refresh, with a seed that replays it.
  func testTwoRequestsRefreshTheTokenOnce() async {
    let session = Session(service: MockTokenService())
    let client = APIClient(session: session)
    async let first = client.send("/profile")
    async let second = client.send("/settings")
    _ = await (first, second)
    let refreshes = await session.refreshes
    XCTAssertEqual(refreshes, 1)
  }

  /// Expected: passes every schedule.
  func testTwoRequestsShareOneRefresh() async {
    let session = SharedRefreshSession(service: MockTokenService())
    let client = APIClient(session: session)
    async let first = client.send("/profile")
    async let second = client.send("/settings")
    _ = await (first, second)
    let refreshes = await session.refreshes
    XCTAssertEqual(refreshes, 1)
  }

  /// Expected: not explored (not async).
  func testSynchronous() {
    XCTAssertEqual(1 + 1, 2)
  }
}

/// A log two requests write to, in an order nothing enforces.
actor RequestLog {
  private(set) var entries: [String] = []
  func append(_ entry: String) { entries.append(entry) }
}

final class RequestLogXCTests: XCTestCase {
  /// Expected: exploring finds the other order in a seeded schedule (not schedule 1: first in,
  /// first out, the first request writes first), and its seed replays: a replay runs schedule 1
  /// too, whose length places PCT's change points.
  func testTheFirstRequestIsLoggedFirst() async {
    let log = RequestLog()
    async let first: Void = log.append("first")
    async let second: Void = log.append("second")
    _ = await (first, second)
    let entries = await log.entries
    XCTAssertEqual(entries, ["first", "second"])
  }
}

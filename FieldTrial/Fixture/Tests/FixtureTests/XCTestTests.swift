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

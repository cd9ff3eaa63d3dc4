/// Where a session gets a new token: a server in the app, a mock that answers at once in tests.
public protocol TokenService: Actor {
  func newToken() async -> String
}

/// A session whose token two requests may refresh at once: it checks, awaits the token
/// service, then acts, so a second request that comes between the check and the act refreshes
/// again. The bug apps write most, with a mock that answers at once in the tests.
public actor Session {
  private let service: any TokenService
  private var token: String?
  public private(set) var refreshes = 0

  public init(service: any TokenService) { self.service = service }

  /// The current token, refreshed when there is none.
  public func validToken() async -> String {
    if let token { return token }
    let fresh = await service.newToken()
    refreshes += 1
    token = fresh
    return fresh
  }
}

/// The same session, fixed: the refresh in flight is shared.
public actor SharedRefreshSession {
  private let service: any TokenService
  private var refresh: Task<String, Never>?
  public private(set) var refreshes = 0

  public init(service: any TokenService) { self.service = service }

  public func validToken() async -> String {
    if let refresh { return await refresh.value }
    let service = self.service
    let refresh = Task { await service.newToken() }
    self.refresh = refresh
    refreshes += 1
    return await refresh.value
  }
}

/// What a screen sends its requests through: it counts them, then takes the session's token.
public actor APIClient {
  public private(set) var requests = 0
  private let tokens: @Sendable () async -> String

  public init(session: Session) { tokens = { await session.validToken() } }
  public init(session: SharedRefreshSession) { tokens = { await session.validToken() } }

  public func send(_ path: String) async -> String {
    requests += 1
    return "\(path) with \(await tokens())"
  }
}

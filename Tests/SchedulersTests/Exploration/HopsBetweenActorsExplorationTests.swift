@_spi(Experimental) import SchedulersTesting
import Synchronization
import Testing

// The reentrancy bug app code has most: an actor checks its state, awaits a dependency, then
// acts on what it checked. In a unit test the dependency is a mock actor that answers at once,
// and no code here yields. On the cooperative pool a second call runs on the first actor while
// the first call is on the mock; an exploring run takes each hop between actors as a job of its
// own, so a schedule can put the second call there too (`HopsAsJobs`).

// MARK: An image cache, called twice through `async let`

/// The image loader a test gives the cache: it answers at once, and counts.
actor ImageLoaderMock {
  private(set) var loads = 0
  func image(at url: String) -> String {
    loads += 1
    return "the image at \(url)"
  }
}

protocol ImageCaching: Actor {
  init(loader: ImageLoaderMock)
  func image(at url: String) async -> String
}

/// The bug (WWDC21, "Protect mutable state with Swift actors"): the cache is checked before
/// the `await`, and filled after it.
actor ReentrantImageCache: ImageCaching {
  private var images: [String: String] = [:]
  private let loader: ImageLoaderMock
  init(loader: ImageLoaderMock) { self.loader = loader }

  func image(at url: String) async -> String {
    if let cached = images[url] { return cached }
    let image = await loader.image(at: url)
    images[url] = image
    return image
  }
}

/// The fix: the load in flight is kept, so that a second call awaits it.
actor InFlightImageCache: ImageCaching {
  private var loads: [String: Task<String, Never>] = [:]
  private let loader: ImageLoaderMock
  init(loader: ImageLoaderMock) { self.loader = loader }

  func image(at url: String) async -> String {
    if let load = loads[url] { return await load.value }
    let load = Task { await loader.image(at: url) }
    loads[url] = load
    return await load.value
  }
}

/// What a screen asks for an image and its preview: it counts the views, then takes the
/// cache's copy.
actor Gallery {
  private(set) var views = 0
  private let cache: any ImageCaching
  init(cache: any ImageCaching) { self.cache = cache }

  func image(at url: String) async -> String {
    views += 1
    return await cache.image(at: url)
  }

  func preview(of url: String) async -> String {
    views += 1
    return await cache.image(at: url) + ", small"
  }
}

/// A screen that shows an image and, beside it, its preview: one load.
@Sendable func anImageShownWithItsPreviewIsLoadedOnce<C: ImageCaching>(_: C.Type) async {
  let loader = ImageLoaderMock()
  let gallery = Gallery(cache: C(loader: loader))
  async let image = gallery.image(at: "/cat.png")
  async let preview = gallery.preview(of: "/cat.png")
  _ = await (image, preview)
  #expect(await loader.loads == 1)
}

// MARK: Credentials whose token two requests refresh

/// The token service a test gives the credentials: it answers at once, and counts refreshes.
actor TokenServiceMock {
  private(set) var refreshes = 0
  func refreshedToken() -> String {
    refreshes += 1
    return "token \(refreshes)"
  }
}

/// Where each request is written down before it is sent: a mock that answers at once.
actor RequestLogMock {
  private(set) var paths: [String] = []
  func record(_ path: String) { paths.append(path) }
}

protocol TokenProviding: Actor {
  init(service: TokenServiceMock)
  func validToken() async -> String
}

/// The bug: the token is checked before the `await`, and stored after it.
actor ReentrantCredentials: TokenProviding {
  private var token: String?
  private let service: TokenServiceMock
  init(service: TokenServiceMock) { self.service = service }

  func validToken() async -> String {
    if let token { return token }
    let fresh = await service.refreshedToken()
    token = fresh
    return fresh
  }
}

/// The fix: the refresh in flight is kept, so that a second request awaits it.
actor InFlightCredentials: TokenProviding {
  private var refresh: Task<String, Never>?
  private let service: TokenServiceMock
  init(service: TokenServiceMock) { self.service = service }

  func validToken() async -> String {
    if let refresh { return await refresh.value }
    let refresh = Task { await service.refreshedToken() }
    self.refresh = refresh
    return await refresh.value
  }
}

/// Two requests, each written to the log, then sent with a valid token: one refresh.
@Sendable func twoRequestsRefreshTheTokenOnce<S: TokenProviding>(_: S.Type) async {
  let service = TokenServiceMock()
  let credentials = S(service: service)
  let log = RequestLogMock()
  let profile = Task {
    await log.record("/profile")
    return await credentials.validToken()
  }
  let feed = Task {
    await log.record("/feed")
    return await credentials.validToken()
  }
  _ = await (profile.value, feed.value)
  #expect(await service.refreshes == 1)
}

// MARK: An account overdrawn past an approval

/// The bank's approval a test gives the account: it approves at once.
actor ApprovalMock {
  func approves(_ amount: Int) -> Bool { true }
}

/// The sign-in that comes before each withdrawal: a mock that answers at once.
actor SignInMock {
  func signIn() {}
}

protocol ApprovedAccount: Actor {
  init(balance: Int, approval: ApprovalMock)
  var balance: Int { get }
  func withdraw(_ amount: Int) async
}

/// The bug: the balance is checked before the `await`, and the money taken after it.
actor ReentrantApprovedAccount: ApprovedAccount {
  private(set) var balance: Int
  private let approval: ApprovalMock
  init(balance: Int, approval: ApprovalMock) {
    self.balance = balance
    self.approval = approval
  }

  func withdraw(_ amount: Int) async {
    guard balance >= amount else { return }
    guard await approval.approves(amount) else { return }
    balance -= amount
  }
}

/// The fix: the check and the act in the same turn of the actor, after the `await`.
actor CheckedApprovedAccount: ApprovedAccount {
  private(set) var balance: Int
  private let approval: ApprovalMock
  init(balance: Int, approval: ApprovalMock) {
    self.balance = balance
    self.approval = approval
  }

  func withdraw(_ amount: Int) async {
    guard await approval.approves(amount) else { return }
    guard balance >= amount else { return }
    balance -= amount
  }
}

/// Two withdrawals of 80 from 100, each after signing in.
@Sendable func twoApprovedWithdrawalsNeverOverdraw<A: ApprovedAccount>(_: A.Type) async {
  let account = A(balance: 100, approval: ApprovalMock())
  let signIn = SignInMock()
  let first = Task {
    await signIn.signIn()
    await account.withdraw(80)
  }
  let second = Task {
    await signIn.signIn()
    await account.withdraw(80)
  }
  await first.value
  await second.value
  #expect(await account.balance >= 0)
}

// MARK: The tests

extension ExplorationTests {
  @Suite("Exploring schedules: hops between actors")
  struct HopsBetweenActorsExplorationTests {
    static let buggy: [@Sendable () async -> Void] = [
      { await anImageShownWithItsPreviewIsLoadedOnce(ReentrantImageCache.self) },
      { await twoRequestsRefreshTheTokenOnce(ReentrantCredentials.self) },
      { await twoApprovedWithdrawalsNeverOverdraw(ReentrantApprovedAccount.self) },
    ]
    static let fixed: [@Sendable () async -> Void] = [
      { await anImageShownWithItsPreviewIsLoadedOnce(InFlightImageCache.self) },
      { await twoRequestsRefreshTheTokenOnce(InFlightCredentials.self) },
      { await twoApprovedWithdrawalsNeverOverdraw(CheckedApprovedAccount.self) },
    ]
    /// Which of the programs make their callers with `Task {}`, whose hops are jobs only where
    /// the task-creation shim is in use (Linux).
    static let callersAreUnstructured = [false, true, true]

    /// An unexplored run passes each of them: the hops run in place. With the custom executors
    /// only: the runtime hooks give every run's body a task executor preference, which the
    /// `async let` children inherit, so their hops are jobs in every run there.
    @Test(
      .enabled(
        if: DeterministicExecution.backend == .customExecutors,
        "the runtime hooks' body prefers a task executor in every run, so its child tasks' hops are jobs"
      ), arguments: 0..<3)
    func aRunThatIsNotExploredPasses(_ program: Int) async throws {
      try await withDeterministicExecution { await Self.buggy[program]() }
    }

    @Test(.explorationNeedsTheCustomExecutors, arguments: 0..<3)
    func exploringFindsTheBugWithASeedThatReplays(_ program: Int) async {
      guard HopsAsJobs.reachUnstructuredTasks || !Self.callersAreUnstructured[program] else {
        return
      }
      let finding = await exploringFindsAFailingSchedule(schedules: 1_000) {
        await Self.buggy[program]()
      }
      #expect(finding != nil)
    }

    @Test(.explorationNeedsTheCustomExecutors, arguments: 0..<3)
    func theTraitFindsTheBugWithASeedThatReplays(_ program: Int) async throws {
      guard HopsAsJobs.reachUnstructuredTasks || !Self.callersAreUnstructured[program] else {
        return
      }
      func underTheTrait(replay: UInt64?) async -> [String] {
        let reports = Mutex<[String]>([])
        await withKnownIssue("the check before the await, the act after it") {
          let trait = DeterministicExecutionTrait.deterministicExecution(
            .exploring(schedules: 1_000, replay: replay))
          do {
            try await trait.scope(testName: "program \(program)", declaration: #_sourceLocation) {
              await Self.buggy[program]()
            }
          } catch {
            Issue.record(error)
          }
        } matching: { issue in
          reports.withLock { $0.append(issue.description) }
          return true
        }
        return reports.withLock { $0 }
      }
      let found = await underTheTrait(replay: nil)
      let report = try #require(
        found.first { $0.contains("Exploring schedules found a failing one") }, "\(found)")
      #expect(report.contains("The seed was replayed once here"), "\(report)")
      let seed = try #require(report.firstMatch(of: /seed (0x[0-9A-F]{16})/)?.1)
      let replayed = await underTheTrait(replay: UInt64(seed.dropFirst(2), radix: 16))
      #expect(
        replayed.contains { $0.contains("The replayed schedule fails") && $0.contains(seed) },
        "\(replayed)")
    }

    @Test(arguments: 0..<3)
    func theFixedVersionPassesTenThousandSchedules(_ program: Int) async {
      await exploreSchedules(.exploring(schedules: passingSchedules)) {
        await Self.fixed[program]()
      }
    }
  }
}

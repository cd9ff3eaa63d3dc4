import SchedulersTesting
import Testing

// A lost update across an `await` in a `@MainActor` model: `addButtonTapped` reads the count,
// awaits the server, then writes what it read plus one. The main actor runs other work while
// it awaits, so a second tap in between is lost.

actor CartServer {
  private(set) var savedCount = 0
  func save(_ count: Int) async {
    await Task.yield()  // the round trip
    savedCount = count
  }
}

/// The catalogue the second tap waits for: a few round trips.
actor Catalogue {
  func load() async {
    for _ in 0..<4 { await Task.yield() }
  }
}

@MainActor protocol CartModel: AnyObject, Sendable {
  init(server: CartServer)
  var itemCount: Int { get }
  func addButtonTapped() async
}

/// The bug: the count read before the `await`, written after it.
@MainActor final class LostUpdateCartModel: CartModel {
  private(set) var itemCount = 0
  private let server: CartServer
  init(server: CartServer) { self.server = server }

  func addButtonTapped() async {
    let count = itemCount
    await server.save(count + 1)
    itemCount = count + 1
  }
}

/// The fix: the count changes before the `await`, in one step of the main actor.
@MainActor final class CartModelCountingFirst: CartModel {
  private(set) var itemCount = 0
  private let server: CartServer
  init(server: CartServer) { self.server = server }

  func addButtonTapped() async {
    itemCount += 1
    await server.save(itemCount)
  }
}

/// Two taps: one right away, one once the catalogue has loaded.
@Sendable func twoTapsAddTwoItems<Model: CartModel>(_: Model.Type) async {
  let model = await Model(server: CartServer())
  let catalogue = Catalogue()
  let first = Task(name: "tap") { await model.addButtonTapped() }
  let second = Task(name: "tap after loading") {
    await catalogue.load()
    await model.addButtonTapped()
  }
  await first.value
  await second.value
  #expect(await model.itemCount == 2)
}

extension ExplorationTests {
  @Suite("Exploring schedules: a lost update in a main-actor model")
  struct LostUpdateExplorationTests {
    @Test(.explorationNeedsTheCustomExecutors)
    func theFirstInFirstOutRunPassesButExploringFindsTheLostTap() async {
      await exploringFindsAFailingSchedule { await twoTapsAddTwoItems(LostUpdateCartModel.self) }
    }

    @Test func countingBeforeTheAwaitPassesTenThousandSchedules() async {
      await exploreSchedules(.exploring(schedules: passingSchedules)) {
        await twoTapsAddTwoItems(CartModelCountingFirst.self)
      }
    }
  }
}

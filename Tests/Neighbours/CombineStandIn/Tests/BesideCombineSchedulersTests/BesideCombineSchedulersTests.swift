import Combine
import CombineSchedulers
import Foundation
import Schedulers
import SchedulersTesting
import Testing

// An app built with the Composable Architecture sees combine-schedulers in every feature file
// (TCA re-exports it). Both packages declare `AnyScheduler`, `AnySchedulerOf`, `TestScheduler`,
// `UIScheduler`, `ImmediateSchedulerOf`, `Publishers.Timer`, and on `DispatchQueue` the statics
// `test`, `immediate` and `unimplemented`: unqualified, each is ambiguous in such a file
// ("ambiguous use of 'test'", "'AnySchedulerOf' is ambiguous for type lookup"; .ci/run checks
// that the compiler says so). One call is not: `DispatchQueue.unimplemented("name")` is
// combine-schedulers', whose only overload takes just the name (a test below pins that).
// Module selectors (SE-0491, Swift 6.3) pick one; this file compiles only if the shared names
// it uses can be picked that way.

/// A feature written against this package, in a file that also sees combine-schedulers.
@MainActor
final class SearchFeature {
  private(set) var results: [String] = []
  private let scheduler: Schedulers::AnySchedulerOf<DispatchQueue>
  init(scheduler: Schedulers::AnySchedulerOf<DispatchQueue>) { self.scheduler = scheduler }

  func queryChanged(_ query: String) {
    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(300))) {
      @MainActor [weak self] in self?.results = [query]
    }
  }
}

@Suite("Beside combine-schedulers")
struct BesideCombineSchedulersTests {
  @MainActor @Test func eachSharedNameIsPickedByItsModule() {
    let ours = DispatchQueue.Schedulers::test
    let feature = SearchFeature(scheduler: ours.eraseToAnyScheduler())
    feature.queryChanged("swift")
    ours.advance(by: .milliseconds(300))
    #expect(feature.results == ["swift"])

    // combine-schedulers' own, in the same file.
    let theirs = DispatchQueue.CombineSchedulers::test
    var fired = false
    theirs.schedule(after: theirs.now.advanced(by: .seconds(1))) { fired = true }
    theirs.advance(by: .seconds(1))
    #expect(fired)

    let immediate: Schedulers::AnySchedulerOf<DispatchQueue> = .Schedulers::immediate
    let theirImmediate: CombineSchedulers::AnySchedulerOf<DispatchQueue> =
      .CombineSchedulers::immediate
    _ = (immediate, theirImmediate)
    let unimplemented: Schedulers::AnySchedulerOf<DispatchQueue> =
      .SchedulersTesting::unimplemented("feature")
    _ = unimplemented
    let ourTestType: Schedulers::TestSchedulerOf<DispatchQueue> = DispatchQueue.Schedulers::test
    let theirTestType: CombineSchedulers::TestSchedulerOf<DispatchQueue> =
      DispatchQueue.CombineSchedulers::test
    _ = (ourTestType, theirTestType)
    let ourImmediateType: Schedulers::ImmediateSchedulerOf<DispatchQueue> =
      DispatchQueue.Schedulers::immediate
    _ = ourImmediateType
    let ui: Schedulers::UIScheduler = .shared
    _ = ui
  }

  /// The trap the migration article warns of: a named unimplemented scheduler, unqualified, is
  /// combine-schedulers' without a word, because its `unimplemented(_:)` takes just the name
  /// and this package's also takes defaulted call-site arguments. The module selector picks
  /// this package's.
  @Test func aNamedUnimplementedSchedulerUnqualifiedIsCombineSchedulers() {
    let unqualified = DispatchQueue.unimplemented("feature")
    #expect(
      type(of: unqualified) == CombineSchedulers::UnimplementedSchedulerOf<DispatchQueue>.self)
    let ours = DispatchQueue.SchedulersTesting::unimplemented("feature")
    #expect(type(of: ours) == SchedulersTesting::UnimplementedSchedulerOf<DispatchQueue>.self)
  }

  /// Members both declare on `Scheduler` (`sleep`, `timer`) are picked the same way.
  @Test func sleepsAndTimersArePickedByModuleToo() async throws {
    let scheduler = DispatchQueue.Schedulers::test
    try await withDeterministicExecution(scheduler: scheduler) {
      let sleeper = Task { try await scheduler.Schedulers::sleep(for: .seconds(1)) }
      await scheduler.advance(by: .seconds(1))
      try await sleeper.value
    }
  }
}

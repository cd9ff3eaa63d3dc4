import Dispatch
import Schedulers
import SchedulersTesting
import Testing

// A view model has a reload that uses the main queue and a favourite toggle that does
// not. The toggle's test passes `.unimplemented`: it passes today, and fails with a clear
// message naming the scheduler and the call site the day the toggle starts using it.

@MainActor
@Suite("Proving a code path uses no scheduler")
struct ProvingACodePathUsesNoSchedulerTests {
  @Test func theFavoriteToggleUsesNoScheduler() {
    let model = EpisodeViewModel(client: .mock, mainQueue: .unimplemented("mainQueue"))
    model.favoriteButtonTapped()
  }

  @Test func theDayAPathUsesTheSchedulerTheTestFailsNamingItAndWhereItWasCreated() {
    // One statement, so that `#line` is the line that creates the scheduler.
    let (mainQueue, line) = (AnySchedulerOf<DispatchQueue>.unimplemented("mainQueue"), #line)
    let model = EpisodeViewModel(client: .mock, mainQueue: mainQueue)
    withKnownIssue {
      model.reloadButtonTapped()
    } matching: { issue in
      issue.description.contains("Unimplemented scheduler 'mainQueue'")
        && issue.description.contains("ProvingACodePathUsesNoSchedulerTests.swift:\(line)")
        && issue.description.contains("schedule(options:_:)")
    }
  }
}

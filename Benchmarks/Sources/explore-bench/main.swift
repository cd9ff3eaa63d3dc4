// Schedules per second: how fast exploration can try schedules of a real test. Each story's
// test (the same ones as the story table) runs again and again, each run under a schedule of
// its own (`SCHEDULERS_EXPLORE_EVERY_RUN=pct`: PCT, depth 3, a seed per run), first on an idle
// machine, then with every core kept busy by another process.
//
//   swift run -c release --package-path Benchmarks explore-bench [--schedules N] [--no-load]

import BenchmarkLoad
import Foundation
import SchedulersStories

// Read by the package at its first run: every run from then on takes a schedule of its own.
setenv("SCHEDULERS_EXPLORE_EVERY_RUN", "pct", 1)

var schedules = 2_000
var underLoad = true
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--schedules":
    guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
      FileHandle.standardError.write(Data("--schedules needs a count above zero\n".utf8))
      exit(2)
    }
    schedules = value
  case "--no-load": underLoad = false
  default:
    FileHandle.standardError.write(
      Data("usage: explore-bench [--schedules N] [--no-load]\n".utf8))
    exit(2)
  }
}

let stories: [(name: String, test: @MainActor () async -> Bool)] = [
  ("view state, cancel", SchedulersStories.viewState),
  ("debounced search", SchedulersStories.debouncedSearch),
]

print("| story | machine | schedules | passed | schedules per second |")
print("| --- | --- | --- | --- | --- |")
for load in underLoad ? ["idle", "loaded"] : ["idle"] {
  let spinners = load == "loaded" ? startLoad() : []
  for story in stories {
    _ = await story.test()  // untimed: the first run installs the routing
    var passed = 0
    let clock = ContinuousClock()
    let elapsed = await clock.measure {
      for _ in 0..<schedules where await story.test() { passed += 1 }
    }
    let perSecond =
      Double(schedules)
      / (Double(elapsed.components.seconds)
        + Double(elapsed.components.attoseconds) / 1e18)
    print("| \(story.name) | \(load) | \(schedules) | \(passed) | \(Int(perSecond.rounded())) |")
  }
  stopLoad(spinners)
}

// The story benchmarks: the question a user asks before moving a test suite, "how long does
// each test take, and how often does it flake?" Each story is one test of identical
// production code (`StoryModels`), run the way each package tests it. Each way is timed per
// test (wall clock: median and p99) and counted (how many runs saw the right outcome), first
// on an otherwise idle machine, then with both cores kept busy by two other processes.

import BenchmarkLoad
import CombineSchedulersWorkloads
import Foundation
import ScheduleBenchWorkloads
import SchedulersStories
import SwiftClocksWorkloads

/// One way of running a story's test: returns whether the outcome was right.
struct StoryWay {
  let label: String
  let test: @MainActor () async -> Bool
}

struct Story {
  let name: String
  let ways: [StoryWay]
}

/// The ways of testing one story, given each package's function for it.
func ways(
  ours: @escaping @MainActor () async -> Bool,
  combineSchedulers: @escaping @MainActor () async -> Bool,
  combineSchedulersSerial: @escaping @MainActor () async -> Bool,
  swiftClocks: @escaping @MainActor () async -> Bool
) -> [StoryWay] {
  [
    StoryWay(label: "this package: deterministic run", test: ours),
    StoryWay(
      label: "combine-schedulers 1.2.2: async advance (megaYield)", test: combineSchedulers),
    StoryWay(
      label: "combine-schedulers 1.2.2 in withMainSerialExecutor", test: combineSchedulersSerial),
    StoryWay(label: "swift-clocks 1.1.1: TestClock", test: swiftClocks),
  ]
}

let stories = [
  Story(
    name: "debounced search",
    ways: ways(
      ours: SchedulersStories.debouncedSearch,
      combineSchedulers: CombineSchedulersStories.debouncedSearch,
      combineSchedulersSerial: CombineSchedulersStories.debouncedSearchOnMainSerialExecutor,
      swiftClocks: SwiftClocksStories.debouncedSearch)),
  Story(
    name: "countdown",
    ways: ways(
      ours: SchedulersStories.countdown,
      combineSchedulers: CombineSchedulersStories.countdown,
      combineSchedulersSerial: CombineSchedulersStories.countdownOnMainSerialExecutor,
      swiftClocks: SwiftClocksStories.countdown)),
  Story(
    name: "view state, cancel",
    ways: ways(
      ours: SchedulersStories.viewState,
      combineSchedulers: CombineSchedulersStories.viewState,
      combineSchedulersSerial: CombineSchedulersStories.viewStateOnMainSerialExecutor,
      swiftClocks: SwiftClocksStories.viewState)),
  // No time at all: what a run costs the most common test, beside the same test run plainly.
  Story(
    name: "to-do list, no sleep",
    ways: [
      StoryWay(label: "this package: deterministic run", test: SchedulersStories.todoList),
      StoryWay(label: "a plain async test (no wrapper)", test: CombineSchedulersStories.todoList),
      StoryWay(
        label: "combine-schedulers 1.2.2 in withMainSerialExecutor",
        test: CombineSchedulersStories.todoListOnMainSerialExecutor),
    ]),
]

/// One line of the story table.
struct StoryResult {
  let story: String
  let way: String
  let load: String
  /// Wall time per test, sorted.
  let times: [Duration]
  let passed: Int

  var median: Duration { times[times.count / 2] }
  var p99: Duration {
    times[min(times.count - 1, Int((Double(times.count) * 0.99).rounded(.up)) - 1)]
  }
}

/// Runs one way `repetitions` times after one untimed run, timing each test.
@MainActor
func measureStory(_ way: StoryWay, repetitions: Int) async -> (times: [Duration], passed: Int) {
  _ = await way.test()
  let clock = ContinuousClock()
  var times: [Duration] = []
  times.reserveCapacity(repetitions)
  var passed = 0
  for _ in 0..<repetitions {
    let start = clock.now
    if await way.test() { passed += 1 }
    times.append(clock.now - start)
  }
  return (times.sorted(), passed)
}

@MainActor
func runStories(repetitions: Int, loaded: Bool) async -> [StoryResult] {
  var results: [StoryResult] = []
  for load in loaded ? ["idle", "loaded"] : ["idle"] {
    let spinners = load == "loaded" ? startLoad() : []
    defer { stopLoad(spinners) }
    for story in stories {
      for way in story.ways {
        progress("story \(story.name), \(load): \(way.label)")
        let (times, passed) = await measureStory(way, repetitions: repetitions)
        results.append(
          StoryResult(story: story.name, way: way.label, load: load, times: times, passed: passed))
      }
    }
  }
  progress("")
  return results
}

/// A duration in microseconds, for the table and the JSON.
func microsecondsValue(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
}

func microseconds(_ duration: Duration) -> String { format(microsecondsValue(duration)) }

func storyTable(_ results: [StoryResult]) -> String {
  let header = ["story", "way of testing", "machine", "median µs/test", "p99 µs/test", "passed"]
  let rows = results.map {
    [
      $0.story, $0.way, $0.load, microseconds($0.median), microseconds($0.p99),
      "\(grouped($0.passed)) of \(grouped($0.times.count))",
    ]
  }
  let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
  func line(_ cells: [String]) -> String {
    cells.enumerated().map { column, cell in
      column < 3
        ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
        : String(repeating: " ", count: widths[column] - cell.count) + cell
    }.joined(separator: "  ")
  }
  return
    ([line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
    + rows.map(line)).joined(separator: "\n")
}

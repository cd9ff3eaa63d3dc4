// swift-tools-version: 6.2
// 6.2 is the oldest toolchain the code compiles with: it uses Swift 6.2's `SendableMetatype`
// and `Task.name`. Verified here with Swift 6.3.1 on Linux; the support table is "Three backends,
// and where each works" in the DocC article "Testing Async Code Deterministically".
//
// Licensed under the MIT License: see LICENSE, which covers every file of the package.
import PackageDescription

let package = Package(
  name: "swift-schedulers",
  // The floor of the Composable Architecture, and of `Duration` and `Clock`, on which the
  // whole API is built. Newer capabilities stay behind `@available`: the time-based
  // `AsyncSequence` operators (typed throws, the 18 generation) and deterministic execution
  // (a runtime check: the 18 generation for the runtime hooks, 26.4 for custom executors).
  // `.ci/run` type-checks all three library modules at this floor against the standard
  // library's Apple availability (`.ci/check-apple-availability`).
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    // What an app links: schedulers, sleeps, timers, operators, and the test scheduler (which
    // tests of an app's own modules need beside them). Nothing that imports a test framework
    // or touches the runtime's executors: those are in SchedulersTesting.
    .library(name: "Schedulers", targets: ["Schedulers"]),
    // What a test target links: the unimplemented scheduler, deterministic execution (which
    // routes every job of the process, so it must never reach an app), diagnostics, marbles.
    .library(name: "SchedulersTesting", targets: ["SchedulersTesting"]),
    // What a test target links to have its suite, unchanged, explored: with
    // SCHEDULERS_EXPLORE_SUITE set, every async test of the process runs deterministically
    // under explored schedules (docs/field-trial.md). Linux only; unset, it changes nothing.
    .library(name: "SchedulersSuiteExploration", targets: ["SchedulersSuiteExploration"]),
  ],
  targets: [
    .target(name: "Schedulers"),
    // Deterministic execution: routing every job of a run to one queue (the custom-executor SPI
    // of Swift 6.3, or the runtime's hook variables), and the driver thread that drains it.
    // Not a product: tests reach it through `SchedulersTesting`, which re-exports it.
    .target(
      name: "SchedulersDeterministic", dependencies: ["Schedulers", "SchedulersTaskCreation"]),
    // Linux: this test process's own `swift_task_create`, which gives the tasks an exploring
    // run's tasks create a task executor preference, so that their hops between actors are
    // jobs the run orders (the runtime runs them in place otherwise). C, because the runtime's
    // calling convention for it is `swiftcall`.
    .target(name: "SchedulersTaskCreation"),
    .target(name: "SchedulersTesting", dependencies: ["Schedulers", "SchedulersDeterministic"]),
    // Linux: this test process's own `Test.__store` (Swift Testing) and `asyncTest` (XCTest),
    // the two calls every test of a suite goes through, so that an environment variable puts
    // each test under exploration without an edit to the tests.
    .target(
      name: "SchedulersSuiteExploration", dependencies: ["Schedulers", "SchedulersTesting"]),
    .testTarget(
      name: "SchedulersTests",
      dependencies: ["Schedulers", "SchedulersTesting"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

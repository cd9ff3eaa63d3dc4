// swift-tools-version: 6.0
// The comparison of swift-schedulers with the peers users would otherwise pick. A package of
// its own, so that users of the library never resolve these dependencies.
//
//   swift run -c release --package-path Benchmarks
import PackageDescription

let package = Package(
  name: "swift-schedulers-benchmarks",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  dependencies: [
    // Named, because a path dependency is otherwise known by its folder's name.
    .package(name: "swift-schedulers", path: ".."),
    .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", exact: "1.1.1"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    // withMainSerialExecutor, as combine-schedulers' users wrap their tests in it.
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", exact: "1.4.3"),
    // debounce and throttle on the same clock as this package's, for the operator rows.
    .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
  ],
  targets: [
    // Each peer's workloads live in a module of their own that exposes only standard-library
    // types: combine-schedulers and this package both extend `DispatchQueue` with `test`,
    // `immediate` and a `SchedulerTimeType`, and must never meet in one file.
    // The production code of the story benchmarks, with no scheduler in it: every way of
    // testing a story runs this same code.
    .target(name: "StoryModels"),
    // This package's own workloads: schedule throughput, operators, sleepers, and the harness
    // every table shares (public API only, as a user's code would use it).
    .target(
      name: "ScheduleBenchWorkloads",
      dependencies: [
        .product(name: "Schedulers", package: "swift-schedulers"),
        .product(name: "SchedulersTesting", package: "swift-schedulers"),
      ]
    ),
    // Schedule throughput of this package alone, against a reference heap.
    .executableTarget(name: "schedule-bench", dependencies: ["ScheduleBenchWorkloads"]),
    .target(
      name: "SchedulersStories",
      dependencies: [
        "ScheduleBenchWorkloads", "StoryModels",
      ]
    ),
    .target(
      name: "CombineSchedulersWorkloads",
      dependencies: [
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        "StoryModels",
      ]
    ),
    .target(
      name: "SwiftClocksWorkloads",
      dependencies: [.product(name: "Clocks", package: "swift-clocks"), "StoryModels"]
    ),
    .target(
      name: "AsyncAlgorithmsWorkloads",
      dependencies: [
        "ScheduleBenchWorkloads",
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]
    ),
    .target(name: "HeapStatistics"),
    // The spinning processes of the "loaded" rows, one definition for every table that has them.
    .target(name: "BenchmarkLoad"),
    // Schedules per second of exploration, on the stories' tests.
    .executableTarget(name: "explore-bench", dependencies: ["SchedulersStories", "BenchmarkLoad"]),
    // How exact plain `Task.sleep`s on a run's virtual clock are, idle and loaded.
    .executableTarget(
      name: "sleep-bench",
      dependencies: [
        "ScheduleBenchWorkloads", "BenchmarkLoad",
      ]
    ),
    // A suite of the stories' tests in one task group, against combine-schedulers' suite in
    // withMainSerialExecutor.
    .executableTarget(
      name: "suite-bench",
      dependencies: [
        "SchedulersStories", "CombineSchedulersWorkloads",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    // A mixed suite: a few hundred ordinary async tests beside deterministic and exploring
    // ones, in one Swift Testing process (run by mixed-suite.sh, which times them).
    .testTarget(
      name: "MixedSuiteTests",
      dependencies: [
        "StoryModels",
        .product(name: "Schedulers", package: "swift-schedulers"),
        .product(name: "SchedulersTesting", package: "swift-schedulers"),
      ]
    ),
    .executableTarget(
      name: "peer-bench",
      dependencies: [
        "ScheduleBenchWorkloads",
        "CombineSchedulersWorkloads", "SwiftClocksWorkloads", "HeapStatistics",
        "SchedulersStories", "AsyncAlgorithmsWorkloads", "BenchmarkLoad",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("MemberImportVisibility")
    ]
}

// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "swift-schedulers",
  // `Synchronization.Mutex` needs the macOS 15 generation of Apple platforms.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    // What an app links: schedulers, sleeps, timers, operators. No test machinery.
    .library(name: "Schedulers", targets: ["Schedulers"]),
    // What a test target links: the unimplemented scheduler, deterministic execution (which
    // routes every job of the process, so it must never reach an app), diagnostics, marbles.
    .library(name: "SchedulersTesting", targets: ["SchedulersTesting"]),
    .executable(name: "schedule-bench", targets: ["schedule-bench"]),
    // The benchmark workloads, shared with the Benchmarks package (which compares them with
    // the peers). Underscored: not part of the library, nothing but the benchmarks uses it.
    .library(name: "_ScheduleBenchWorkloads", targets: ["ScheduleBenchWorkloads"]),
  ],
  targets: [
    .target(name: "Schedulers"),
    // Deterministic execution: SE-0471 executors installed process-wide, a driver thread.
    // Not a product: tests reach it through `SchedulersTesting`, which re-exports it.
    .target(name: "SchedulersDeterministic", dependencies: ["Schedulers"]),
    .target(name: "SchedulersTesting", dependencies: ["Schedulers", "SchedulersDeterministic"]),
    .target(
      name: "ScheduleBenchWorkloads", dependencies: ["Schedulers", "SchedulersDeterministic"]),
    .executableTarget(name: "schedule-bench", dependencies: ["ScheduleBenchWorkloads"]),
    .testTarget(
      name: "SchedulersTests",
      dependencies: ["Schedulers", "SchedulersTesting"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

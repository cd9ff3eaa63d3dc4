// swift-tools-version: 6.2
// 6.2 is the oldest toolchain the code compiles with: it uses Swift 6.2's `SendableMetatype`
// and `Task.name`. Verified here with Swift 6.3.1 on Linux; see the README's support table.
import PackageDescription

let package = Package(
  name: "swift-schedulers",
  // `Synchronization.Mutex` needs the macOS 15 generation of Apple platforms.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    // What an app links: schedulers, sleeps, timers, operators, and the test scheduler (which
    // tests of an app's own modules need beside them). Nothing that imports a test framework
    // or touches the runtime's executors: those are in SchedulersTesting.
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
    // Deterministic execution: routing every job of a run to one queue (the custom-executor SPI
    // of Swift 6.3, or the runtime's hook variables), and the driver thread that drains it.
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

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

// Where Combine can be imported (Apple platforms), the library builds on it. Linux has no
// Combine; CI proves that build with a stand-in (OpenCombine presented as a module named
// `Combine`, in Benchmarks/CombineStandIn), selected only by this variable so that users never
// resolve it. With it, every library target sees `Combine`, and the interop tests join.
if Context.environment["SCHEDULERS_COMBINE_STANDIN"] == "1" {
  package.dependencies.append(
    .package(name: "combine-standin", path: "Benchmarks/CombineStandIn"))
  let combine = Target.Dependency.product(name: "Combine", package: "combine-standin")
  for target in package.targets where target.type == .regular {
    target.dependencies.append(combine)
  }
  package.targets.append(
    .testTarget(
      name: "CombineInteropTests",
      dependencies: ["Schedulers", "SchedulersTesting", combine]
    ))
}

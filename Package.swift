// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "swift-schedulers",
  // `Synchronization.Mutex` needs the macOS 15 generation of Apple platforms.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Schedulers", targets: ["Schedulers"]),
    .library(name: "SchedulersTesting", targets: ["SchedulersTesting"]),
    .executable(name: "schedule-bench", targets: ["schedule-bench"]),
    // The benchmark workloads, shared with the Benchmarks package (which compares them with
    // the peers). Not part of the library: nothing but the benchmarks should depend on it.
    .library(name: "ScheduleBenchWorkloads", targets: ["ScheduleBenchWorkloads"]),
  ],
  targets: [
    .target(name: "Schedulers"),
    .target(name: "SchedulersTesting", dependencies: ["Schedulers"]),
    .target(name: "ScheduleBenchWorkloads", dependencies: ["Schedulers"]),
    .executableTarget(name: "schedule-bench", dependencies: ["ScheduleBenchWorkloads"]),
    .testTarget(
      name: "SchedulersTests",
      dependencies: ["Schedulers", "SchedulersTesting"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

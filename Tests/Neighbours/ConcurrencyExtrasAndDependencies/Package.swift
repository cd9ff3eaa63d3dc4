// swift-tools-version: 6.2
// The package beside two of Point-Free's, for CI only. One package, so that the library is
// built once for both (swift-dependencies depends on swift-concurrency-extras anyway):
//
// - WithMainSerialExecutorTests: deterministic runs beside swift-concurrency-extras'
//   `withMainSerialExecutor`, which sets the same runtime hook as this package's
//   runtime-hooks backend.
// - ContinuousClockDependencyTests: features that sleep on swift-dependencies'
//   `@Dependency(\.continuousClock)`, tested with a test scheduler's clock put in its place,
//   in deterministic runs.
//
//   swift test --package-path Tests/Neighbours/ConcurrencyExtrasAndDependencies
//   SCHEDULERS_DETERMINISTIC_BACKEND=hooks swift test --package-path Tests/Neighbours/ConcurrencyExtrasAndDependencies
//
// A package of its own, so that the library's Package.swift names no dependency.
import PackageDescription

let package = Package(
  name: "concurrency-extras-and-dependencies-neighbour",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  dependencies: [
    // Named, because a path dependency is otherwise known by its folder's name.
    .package(name: "swift-schedulers", path: "../../.."),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", exact: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
  ],
  targets: [
    .testTarget(
      name: "WithMainSerialExecutorTests",
      dependencies: [
        .product(name: "Schedulers", package: "swift-schedulers"),
        .product(name: "SchedulersTesting", package: "swift-schedulers"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    .testTarget(
      name: "ContinuousClockDependencyTests",
      dependencies: [
        .product(name: "Schedulers", package: "swift-schedulers"),
        .product(name: "SchedulersTesting", package: "swift-schedulers"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        // Links the Testing framework for swift-dependencies' issue reporting: without it, a
        // feature that reads the clock nobody overrode prints a warning and the test passes.
        .product(name: "DependenciesTestSupport", package: "swift-dependencies"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

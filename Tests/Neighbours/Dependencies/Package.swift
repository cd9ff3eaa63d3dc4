// swift-tools-version: 6.2
// Features that sleep on swift-dependencies' `@Dependency(\.continuousClock)`, tested with a
// test scheduler's clock put in its place, in deterministic runs. For CI only:
//
//   swift test --package-path Tests/Neighbours/Dependencies
//   SCHEDULERS_DETERMINISTIC_BACKEND=hooks swift test --package-path Tests/Neighbours/Dependencies
//
// A package of its own, so that the library's Package.swift names no dependency.
import PackageDescription

let package = Package(
  name: "dependencies-neighbour",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  dependencies: [
    // Named, because a path dependency is otherwise known by its folder's name.
    .package(name: "swift-schedulers", path: "../../.."),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
  ],
  targets: [
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
    )
  ],
  swiftLanguageModes: [.v6]
)

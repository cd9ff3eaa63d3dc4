// swift-tools-version: 6.2
// Deterministic runs beside swift-concurrency-extras' `withMainSerialExecutor`, which sets the
// same runtime hook as this package's runtime-hooks backend. For CI only:
//
//   swift test --package-path Tests/Neighbours/ConcurrencyExtras
//   SCHEDULERS_DETERMINISTIC_BACKEND=hooks swift test --package-path Tests/Neighbours/ConcurrencyExtras
//
// A package of its own, so that the library's Package.swift names no dependency.
import PackageDescription

let package = Package(
  name: "concurrency-extras-neighbour",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  dependencies: [
    // Named, because a path dependency is otherwise known by its folder's name.
    .package(name: "swift-schedulers", path: "../../.."),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", exact: "1.4.3"),
  ],
  targets: [
    .testTarget(
      name: "WithMainSerialExecutorTests",
      dependencies: [
        .product(name: "Schedulers", package: "swift-schedulers"),
        .product(name: "SchedulersTesting", package: "swift-schedulers"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)

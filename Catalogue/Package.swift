// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "swift-schedulers-catalogue",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "swift-schedulers", path: ".."),
    .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    // Its logger, at the version its 2.13.0 resolves with.
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
  ],
  targets: [
    .target(name: "Reconstructions"),
    .testTarget(
      name: "CatalogueTests",
      dependencies: [
        "Reconstructions",
        .product(name: "Schedulers", package: "swift-schedulers"),
        .product(name: "SchedulersTesting", package: "swift-schedulers"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

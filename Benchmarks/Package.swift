// swift-tools-version: 6.0
// The comparison of swift-schedulers with the peers users would otherwise pick. A package of
// its own, so that users of the library never resolve these dependencies.
//
//   swift run -c release --package-path Benchmarks
import PackageDescription

let package = Package(
  name: "swift-schedulers-benchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [
    // Named, because a path dependency is otherwise known by its folder's name.
    .package(name: "swift-schedulers", path: ".."),
    .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", exact: "1.1.1"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
  ],
  targets: [
    // Each peer's workloads live in a module of their own that exposes only standard-library
    // types: combine-schedulers and this package both extend `DispatchQueue` with `test`,
    // `immediate` and a `SchedulerTimeType`, and must never meet in one file.
    .target(
      name: "CombineSchedulersWorkloads",
      dependencies: [
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
      ]
    ),
    .target(
      name: "SwiftClocksWorkloads",
      dependencies: [.product(name: "Clocks", package: "swift-clocks")]
    ),
    .target(name: "HeapStatistics"),
    .executableTarget(
      name: "peer-bench",
      dependencies: [
        .product(name: "_ScheduleBenchWorkloads", package: "swift-schedulers"),
        "CombineSchedulersWorkloads", "SwiftClocksWorkloads", "HeapStatistics",
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

// swift-tools-version: 6.0
// The library as it builds where Combine can be imported, proved on Linux, for CI only:
//
//   swift test --package-path Tests/Neighbours/CombineStandIn
//
// `Combine` here is a stand-in for Apple's: OpenCombine 0.14.0 presented as a module named
// `Combine`. OpenCombine's Dispatch and Foundation parts give `DispatchQueue`, `RunLoop` and
// `OperationQueue` the `Scheduler` conformances Apple's SDK has, with Apple's nested
// `SchedulerTimeType`, `Stride` and `SchedulerOptions`, and `Timer.publish`.
//
// The library's targets and its test suite are the root package's own sources, reached through
// symbolic links under Sources/ and Tests/, built here with `Combine` visible, so their
// `#if canImport(Combine)` side compiles and runs. A package of its own, so that the library's
// Package.swift names no dependency and users never resolve OpenCombine.
import PackageDescription

let package = Package(
  name: "combine-standin",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  dependencies: [
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    // Beside it in an app: the Composable Architecture re-exports combine-schedulers.
    .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
    // Its tests use `withMainSerialExecutor` and `LockIsolated`.
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", exact: "1.4.3"),
  ],
  targets: [
    .target(
      name: "Combine",
      dependencies: [
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
        .product(name: "OpenCombineFoundation", package: "OpenCombine"),
      ]
    ),
    // Symbolic links to the root package's targets (Sources/Schedulers -> ../../../Sources/...).
    .target(name: "Schedulers", dependencies: ["Combine"]),
    .target(
      name: "SchedulersDeterministic", dependencies: ["Schedulers", "SchedulersTaskCreation"]),
    .target(name: "SchedulersTaskCreation"),
    .target(name: "SchedulersTesting", dependencies: ["Schedulers", "SchedulersDeterministic"]),
    .testTarget(name: "SchedulersTests", dependencies: ["Schedulers", "SchedulersTesting"]),
    // Only here: a file importing Combine and Schedulers, and Combine pipelines on the
    // package's schedulers.
    .testTarget(
      name: "CombineInteropTests", dependencies: ["Schedulers", "SchedulersTesting", "Combine"]),
    // A file that imports both this package and combine-schedulers, as a feature of an app
    // built with the Composable Architecture does while it adopts this package.
    .testTarget(
      name: "BesideCombineSchedulersTests",
      dependencies: [
        "Schedulers", "SchedulersTesting", "Combine",
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
      ]),
    // The Combine pipeline of the operator rows, on each package's TestScheduler, in modules
    // of their own (the two `DispatchQueue.test` never meet), and the program that times them.
    .target(name: "PipelineOnSchedulers", dependencies: ["Schedulers", "Combine"]),
    .target(
      name: "PipelineOnCombineSchedulers",
      dependencies: [
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
      ]),
    .executableTarget(
      name: "combine-pipeline-bench",
      dependencies: ["PipelineOnSchedulers", "PipelineOnCombineSchedulers"]),
    // combine-schedulers 1.2.2's own test files with only the import changed, copied from the
    // resolved checkout by `port-combine-schedulers-tests` (not committed), plus the
    // `XCTExpectFailure` that swift-corelibs-xctest lacks.
    .testTarget(
      name: "CombineSchedulersPortedTests",
      dependencies: [
        "Schedulers", "SchedulersTesting", "Combine",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.0
// A stand-in for Apple's Combine on Linux, for CI only: OpenCombine 0.14.0 presented as a
// module named `Combine`. OpenCombine's Dispatch and Foundation parts give `DispatchQueue`,
// `RunLoop` and `OperationQueue` the `Scheduler` conformances Apple's SDK has, with Apple's
// nested `SchedulerTimeType`, `Stride` and `SchedulerOptions`, and `Timer.publish`.
//
// The library's own Package.swift adds this package only when SCHEDULERS_COMBINE_STANDIN=1
// is set (see .ci/run), so that users never resolve it.
import PackageDescription

let package = Package(
  name: "combine-standin",
  products: [.library(name: "Combine", targets: ["Combine"])],
  dependencies: [
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0")
  ],
  targets: [
    .target(
      name: "Combine",
      dependencies: [
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
        .product(name: "OpenCombineFoundation", package: "OpenCombine"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)

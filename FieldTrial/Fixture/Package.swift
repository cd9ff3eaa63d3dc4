// swift-tools-version: 6.0
// The field trial's own suite, written as an app's suite is, not for exploring: each test's
// outcome under SCHEDULERS_EXPLORE_SUITE is known, and `FieldTrial/field-trial fixture`
// checks the trial reports each as it should (a race found with its seed, a test that
// depends on real time named as such, a passing test passing).
import PackageDescription

let package = Package(
  name: "field-trial-fixture",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-schedulers", path: "../..")],
  targets: [
    .target(name: "Fixture"),
    .testTarget(
      name: "FixtureTests",
      dependencies: [
        "Fixture",
        // What a suite links to be explored; nothing in the tests names it.
        .product(name: "SchedulersSuiteExploration", package: "swift-schedulers"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// Swift Testing: every test function the process discovers gets the exploring trait.
//
// Swift Testing has no hook that applies a trait to every test of a process. Each `@Test`
// expands to a record whose accessor, compiled into the test's own module, calls
// `Test.__store(_:into:asTypeAt:)` in libTesting with a function that makes the `Test`. This
// file defines that symbol in the test executable, which the static linker binds the test
// modules' calls to ahead of the shared library's: when SCHEDULERS_EXPLORE_SUITE is set, the
// function it stores appends the trait to each test function's traits, then it calls
// libTesting's own `__store` (found with dlsym(RTLD_NEXT)). Linux only, where libTesting is a
// shared library; the signature is Swift Testing's of Swift 6.2 and 6.3.
#if os(Linux)
  import SchedulersTesting
  import Testing
  import Glibc

  /// The exploring trait of every test of an explored suite: the `.deterministicExecution`
  /// trait with auto-advancing time and the suite's exploration, and a report line per test.
  struct SuiteExplorationTrait: TestTrait, TestScoping {
    let exploration: DeterministicExecution.Exploration

    func provideScope(
      for test: Test, testCase: Test.Case?,
      performing function: @Sendable () async throws -> Void
    ) async throws {
      guard testCase != nil else { return try await function() }
      let start = ContinuousClock.now
      var trait: DeterministicExecutionTrait = .deterministicExecution(
        SuiteExploration.virtualTime, exploration)
      trait.pendingWorkFails = false
      try await trait.scope(testName: test.name, declaration: test.sourceLocation, function)
      // The test's name as the test list spells it (a test function outside a type: without the
      // file and line that its identifier ends with).
      var name = "\(test.id)"
      if let slash = name.lastIndex(of: "/"), name[slash...].contains(".swift:") {
        name = String(name[..<slash])
      }
      SuiteExploration.reportExplored(
        name, seconds: SuiteExploration.seconds(since: start), exploration)
    }
  }

  /// `Test.__store(_:into:asTypeAt:)`, libTesting's: a static function of a struct (no `self`
  /// passed), whose arguments (a closure's function and context, two pointers) and result go
  /// where the C convention puts them on x86_64 and arm64.
  private typealias StoreTest =
    @convention(c) (
      UnsafeRawPointer, UnsafeRawPointer?, UnsafeMutableRawPointer, UnsafeRawPointer
    ) -> CBool

  private let storeTestSymbol = "$s7Testing4TestV7__store_4into8asTypeAtSbACyYaYbc_SvSVtFZ"

  /// libTesting's own `__store`, past this executable's.
  private let libraryStoreTest: StoreTest = {
    guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: -1), storeTestSymbol) else {
      preconditionFailure(
        "SchedulersSuiteExploration: libTesting's Test.__store(_:into:asTypeAt:) was not found "
          + "(\(String(cString: dlerror()))): exploring a suite needs Swift Testing as a shared library"
      )
    }
    return unsafeBitCast(address, to: StoreTest.self)
  }()

  @_silgen_name("$s7Testing4TestV7__store_4into8asTypeAtSbACyYaYbc_SvSVtFZ")
  func storeTestExploringIt(
    _ makeTest: @escaping @Sendable () async -> Test, into outValue: UnsafeMutableRawPointer,
    asTypeAt typeAddress: UnsafeRawPointer
  ) -> CBool {
    var stored = makeTest
    if let exploration = SuiteExploration.exploration {
      stored = {
        var test = await makeTest()
        // A suite is left alone (its tests get the trait themselves), and so is a test that
        // already runs deterministically: runs cannot nest.
        if !test.isSuite && !test.traits.contains(where: { $0 is DeterministicExecutionTrait }) {
          test.traits.append(SuiteExplorationTrait(exploration: exploration))
        }
        return test
      }
    }
    // A closure is two words, its function and its context, passed as two arguments.
    let parts = unsafeBitCast(stored, to: (UnsafeRawPointer, UnsafeRawPointer?).self)
    return withExtendedLifetime(stored) {
      libraryStoreTest(parts.0, parts.1, outValue, typeAddress)
    }
  }
#endif

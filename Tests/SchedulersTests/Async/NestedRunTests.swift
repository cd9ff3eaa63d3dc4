import SchedulersTesting
import Testing

@Suite("A run started inside a run")
struct NestedRunTests {
  /// A nested run fails the test and throws; it does not stop the whole test process.
  @Test func aRunInsideARunFailsTheTestAtTheInnerCallAndThrows() async throws {
    try await withKnownIssue {
      try await withDeterministicExecution { () async throws -> Void in
        await #expect(throws: DeterministicExecutionError.self) {
          _ = try await withDeterministicExecution { 1 }
        }
      }
    } matching: { issue in
      issue.description.contains("runs cannot nest")
        && issue.sourceLocation?.fileName == "NestedRunTests.swift"
    }
  }

  @Test(.deterministicExecution) func aRunInsideATestWithTheTraitFailsTheSameWay() async {
    await withKnownIssue {
      await #expect(throws: DeterministicExecutionError.self) {
        _ = try await withDeterministicExecution { 1 }
      }
    } matching: { issue in
      issue.description.contains("runs cannot nest")
    }
  }
}

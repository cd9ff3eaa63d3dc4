import Dispatch
import Schedulers
import SchedulersTesting
import Testing

/// The marble-testing harness itself: syntax, reports, the user's own operators, parallel use.
@Suite("Marble testing")
struct MarbleTestingTests {
  static let frame = DispatchQueue.SchedulerTimeType.Stride.seconds(1)

  @Test func parsesElementsGroupsAndEnds() throws {
    let values: [Character: Int] = ["a": 1, "b": 2, "c": 3]
    let timeline = try MarbleTimeline.parse("a-(bc)--|", values: values)
    #expect(timeline.events.map(\.frame) == [0, 2, 2, 8])
    #expect(timeline.events.map(\.event) == [.value(1), .value(2), .value(3), .finished])
    #expect(timeline.render { value in values.first { $0.value == value }!.key } == "a-(bc)--|")

    let failing = try MarbleTimeline.parse("--#", values: values)
    #expect(failing.events.map(\.frame) == [2])
    #expect(failing.events.map(\.event) == [.failed(MarbleFailure())])
  }

  @Test(
    arguments: [
      ("a-|b", "\"b\" after the end of the timeline, at column 3 of \"a-|b\""),
      ("a-x", "\"x\" has no value (give it one in `values:`), at column 2 of \"a-x\""),
      ("(a-b)", "\"-\" inside a group, at column 2 of \"(a-b)\""),
      ("(a(b))", "a group inside a group, at column 2 of \"(a(b))\""),
      ("a)", "\")\" without \"(\", at column 1 of \"a)\""),
      ("(ab", "a group is not closed in \"(ab\""),
    ])
  func malformedMarblesNameTheProblem(marbles: String, message: String) {
    #expect {
      try MarbleTimeline<String>.parse(marbles, values: ["a": "a", "b": "b"])
    } throws: { error in
      (error as? MarbleSyntaxError)?.description == message
    }
  }

  @Test func aMismatchRecordsOneFailureWithBothTimelines() async throws {
    var result: MarbleResult<String>?
    try await withKnownIssue {
      result = try await expectMarbles(input: "a-b-|", expected: "a-b-|", frame: Self.frame) {
        input, scheduler in
        input.delay(for: .seconds(1), scheduler: scheduler)
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        The output differs from the marbles (one frame = 1 s):
          input:    a-b-|
          expected: a-b-|
          actual:   -a-b-|
          at frame 0 (0 s): expected a, got nothing
          at frame 1 (1 s): expected nothing, got a
          at frame 2 (2 s): expected b, got nothing
          at frame 3 (3 s): expected nothing, got b
          at frame 4 (4 s): expected | (finish), got nothing
          at frame 5 (5 s): expected nothing, got | (finish)
        """
      ]
    }
    #expect(result?.matched == false)
    #expect(result?.actual == "-a-b-|")
  }

  @Test func eventsBetweenFramesAreNamedAsSuch() async throws {
    try await withKnownIssue {
      try await expectMarbles(input: "a|", expected: "-a|", frame: Self.frame) {
        input, scheduler in
        input.delay(for: .milliseconds(1500), scheduler: scheduler)
      }
    } matching: { issue in
      let report = issue.comments.map(\.rawValue).joined()
      return report.contains("actual:   -a|  (events between frames are listed below)")
        && report.contains("at 1500 ms, between frames 1 and 2: expected nothing, got a")
        && report.contains("at frame 1 (1 s): expected a, got nothing")
    }
  }

  @Test func aMissingFinishIsAMismatch() async throws {
    await withKnownIssue {
      try await expectMarbles(input: "a-b", expected: "a-b|", frame: Self.frame) { input, _ in
        input
      }
    }
  }

  @Test func anExtraElementAfterTheStringsIsCaught() async throws {
    // The output's last element comes after both strings end: time runs on to find it.
    try await withKnownIssue {
      try await expectMarbles(input: "a", expected: "a", frame: Self.frame) { input, scheduler in
        input.chainDelayedCopy(after: .seconds(5), scheduler: scheduler)
      }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("at frame 5 (5 s): expected nothing, got a")
    }
  }

  @Test func worksForTheUsersOwnOperatorsAndValues() async throws {
    // A user's operator, written against any scheduler: pairs each element with the previous.
    try await expectMarbles(
      input: "a-b--c|",
      expected: "--x--y|",
      frame: Self.frame,
      values: ["a": 1, "b": 2, "c": 3],
      expectedValues: ["x": [1, 2], "y": [2, 3]]
    ) { input, _ in
      input.pairs()
    }
  }

  @Test func theResultCarriesTheFailure() async throws {
    let result = try await expectMarbles(input: "a#", expected: "a#", frame: Self.frame) {
      input, _ in input
    }
    #expect(result.matched)
    #expect(result.failure is MarbleFailure)
    #expect(result.events.map(\.offset) == [.zero, .seconds(1)])
  }

  @Test func marbleTestsRunInParallelWithoutSharedState() async throws {
    // Sixteen marble tests at once, each with its own interval: no global frame or scheduler.
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for delay in 1...16 {
        group.addTask {
          let expected = String(repeating: "-", count: delay) + "a-b-|"
          return try await expectMarbles(input: "a-b-|", expected: expected, frame: Self.frame) {
            input, scheduler in
            input.delay(for: .seconds(delay), scheduler: scheduler)
          }.matched
        }
      }
      for try await matched in group { #expect(matched) }
    }
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Each element with the one before it (a user's operator without time).
  fileprivate func pairs() -> AsyncThrowingStream<[Element], any Error> {
    AsyncThrowingStream { continuation in
      let task = Task {
        var previous: Element?
        do {
          for try await element in self {
            if let previous { continuation.yield([previous, element]) }
            previous = element
          }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  /// Every element at once, and again `delay` later (a user's operator with a scheduler).
  fileprivate func chainDelayedCopy(
    after delay: DispatchQueue.SchedulerTimeType.Stride, scheduler: TestSchedulerOf<DispatchQueue>
  ) -> AsyncStream<Element> {
    AsyncStream { continuation in
      let task = Task {
        do {
          for try await element in self {
            continuation.yield(element)
            scheduler.schedule(after: scheduler.now.advanced(by: delay)) {
              continuation.yield(element)
            }
          }
        } catch {}
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}

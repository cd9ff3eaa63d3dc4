import Dispatch
import Foundation
import Schedulers
import SchedulersTesting
import Testing

/// The marble harness's subscriptions (`^`, `!`), consumer cancellation, several inputs, and
/// time types other than Dispatch's.
@Suite("Marble harness: subscriptions, cancellation, several inputs, any time type")
struct MarbleSubscriptionTests {
  static let frame = DispatchQueue.SchedulerTimeType.Stride.milliseconds(100)

  /// RxJS 7's `throttleTime` spec, with its `expectSubscriptions` lines.
  @Test(
    arguments: [
      ("-a-x-y----b---x-cx---|", "^--------------------!", "-a--------b-----c----|", 5),
      ("-----#", "^----!", "-----#", 10),
      // An empty or failing source: subscribed and ended in the same frame.
      ("|", "(^!)", "|", 30),
      ("#", "(^!)", "#", 30),
      // A source that never ends: still subscribed when the test ends.
      ("-", "^", "-", 30),
    ])
  func rxjsSubscriptions(input: String, subscriptions: String, expected: String, frames: Int)
    async throws
  {
    let result = try await expectMarbles(
      input: input, subscriptions: subscriptions, expected: expected, frame: Self.frame
    ) { input, scheduler in
      input.throttle(for: .milliseconds(100 * frames), scheduler: scheduler, edges: .leading)
    }
    #expect(result.subscriptions == [subscriptions])
  }

  /// RxJS's "should throttle and does not complete when source does not completes": the
  /// consumer unsubscribes at frame 31, and the operator cancels its upstream then.
  @Test func cancellingTheConsumerAtAFrameCancelsTheUpstreamThere() async throws {
    let result = try await expectMarbles(
      input: "-a--(bc)-------d----------------",
      subscriptions: "^------------------------------!",
      expected: "-a-------------d----------------",
      cancelConsumer: "-------------------------------!",
      frame: Self.frame
    ) { input, scheduler in
      input.throttle(for: .milliseconds(500), scheduler: scheduler, edges: .leading)
    }
    #expect(result.matched)
  }

  @Test func theConsumerIsCancelledAtTheEndOfItsFrame() async throws {
    // b arrives at frame 4, the frame of the cancellation, and passes: it is recorded; c is
    // not.
    try await expectMarbles(
      input: "-a--b--c---",
      subscriptions: "^---!",
      expected: "-a--b",
      cancelConsumer: "----!",
      frame: Self.frame
    ) { input, scheduler in
      input.delay(for: .zero, scheduler: scheduler)
    }
  }

  @Test func anOperatorThatStopsEarlyEndsItsSubscriptionWhenItLetsTheIteratorGo() async throws {
    try await expectMarbles(
      input: "-a-b-c-|", subscriptions: "^--!", expected: "-a-(b|)", frame: Self.frame
    ) { input, _ in
      input.prefix(2)
    }
  }

  @Test func aMismatchedSubscriptionIsReportedWithBothStrings() async throws {
    var result: MarbleResult<String>?
    try await withKnownIssue {
      result = try await expectMarbles(
        input: "-a-b-c-|", subscriptions: "^------!", expected: "-a-(b|)", frame: Self.frame
      ) { input, _ in
        input.prefix(2)
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        The subscriptions differ from the marbles (one frame = 100 ms):
          input:    -a-b-c-|
          expected: -a-(b|)
          actual:   -a-(b|)
          subscriptions of the input differ:
            expected: ^------!
            actual:   ^--!
        """
      ]
    }
    #expect(result?.matched == false)
    #expect(result?.subscriptions == ["^--!"])
  }

  @Test(arguments: ["^-a", "(^", "^-(-)", "^)"])
  func malformedSubscriptionMarblesNameTheProblem(subscriptions: String) async {
    await #expect(throws: MarbleSyntaxError.self) {
      try await expectMarbles(
        input: "a|", subscriptions: subscriptions, expected: "a|", frame: Self.frame
      ) { input, _ in input }
    }
  }

  @Test(arguments: ["", "^--!", "-!-!", "--"])
  func aConsumerCancellationIsOneExclamationMark(cancelConsumer: String) async {
    await #expect(throws: MarbleSyntaxError.self) {
      try await expectMarbles(
        input: "a|", expected: "a|", cancelConsumer: cancelConsumer, frame: Self.frame
      ) { input, _ in input }
    }
  }

  // MARK: Several inputs

  @Test func severalInputsPlayOnOneSchedulerEachWithItsSubscriptions() async throws {
    let result = try await expectMarbles(
      inputs: ["-a---b-|", "--c-d---|"],
      subscriptions: ["^------!", "^-------!"],
      expected: "-ac-db--|",
      frame: Self.frame
    ) { inputs, _ in
      merged(inputs[0], inputs[1])
    }
    #expect(result.subscriptions == ["^------!", "^-------!"])
  }

  @Test func cancellingTheConsumerOfSeveralInputsCancelsEach() async throws {
    try await expectMarbles(
      inputs: ["-a---b-|", "--c-d---|"],
      subscriptions: ["^--!", "^--!"],
      expected: "-ac",
      cancelConsumer: "---!",
      frame: Self.frame
    ) { inputs, _ in
      merged(inputs[0], inputs[1])
    }
  }

  @Test func aLateSubscriberToAHotInputMissesWhatWentBefore() async throws {
    // The second input is iterated only once the first has finished, at frame 3: c at 2 is
    // missed, d at 4 is not.
    try await expectMarbles(
      inputs: ["-a-|", "--c-d|"],
      subscriptions: ["^--!", "---^-!"],
      expected: "-a--d|",
      frame: Self.frame
    ) { inputs, _ in
      concatenated(inputs[0], inputs[1])
    }
  }

  // MARK: Other time types

  @Test func aRunLoopTestSchedulerDrivesTheHarness() async throws {
    let result = try await expectMarbles(
      inputs: ["a-b-|"], subscriptions: ["^---!"], expected: "-a-b-|",
      frame: .seconds(1), scheduler: RunLoop.test,
      values: ["a": 1, "b": 2], expectedValues: ["a": 1, "b": 2]
    ) { inputs, scheduler in
      inputs[0].delay(for: .seconds(1), scheduler: scheduler)
    }
    #expect(result.events.map(\.offset) == [.seconds(1), .seconds(3), .seconds(5)])
  }

  @Test func anOperationQueueTestSchedulerDrivesTheCallbackHarness() throws {
    try expectCallbackMarbles(
      input: "ab--|", expected: "--b-|", frame: .milliseconds(500),
      scheduler: OperationQueue.test, values: ["a": 1, "b": 2], expectedValues: ["b": 2]
    ) { scheduler, output in
      let debouncer = Debouncer(for: .milliseconds(500), scheduler: scheduler)
      return { event in
        switch event {
        case .value(let value): debouncer.call { output.send(value) }
        case .finished: output.finish()
        case .failed(let error): output.fail(error)
        }
      }
    }
  }

  @Test func aMismatchOnAnotherTimeTypeNamesItsFramesInItsUnits() async throws {
    try await withKnownIssue {
      try await expectMarbles(
        inputs: ["a|"], expected: "a|", frame: .seconds(2), scheduler: RunLoop.test,
        values: ["a": "a"], expectedValues: ["a": "a"]
      ) { inputs, scheduler in
        inputs[0].delay(for: .seconds(3), scheduler: scheduler)
      }
    } matching: { issue in
      let report = issue.comments.map(\.rawValue).joined()
      return report.contains("one frame = 2 s") && report.contains("actual:   -a|")
        && report.contains("at 3 s, between frames 1 and 2: expected nothing, got a")
    }
  }
}

/// The elements of both sequences as they arrive; finishes when both have (a test's own
/// merging operator).
private func merged(
  _ first: MarbleInput<String>, _ second: MarbleInput<String>
) -> AsyncThrowingStream<String, any Error> {
  AsyncThrowingStream { continuation in
    let task = Task {
      do {
        try await withThrowingTaskGroup(of: Void.self) { group in
          for input in [first, second] {
            group.addTask { for try await value in input { continuation.yield(value) } }
          }
          try await group.waitForAll()
        }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    continuation.onTermination = { _ in task.cancel() }
  }
}

/// The first sequence's elements, then the second's (iterated only then).
private func concatenated(
  _ first: MarbleInput<String>, _ second: MarbleInput<String>
) -> AsyncThrowingStream<String, any Error> {
  AsyncThrowingStream { continuation in
    let task = Task {
      do {
        for try await value in first { continuation.yield(value) }
        for try await value in second { continuation.yield(value) }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    continuation.onTermination = { _ in task.cancel() }
  }
}

import AsyncAlgorithms
import Logging
import Schedulers
import SchedulersTesting
import ServiceLifecycle
import Synchronization
import Testing

// The explorer pointed at the releases this package resolves, through their public API, on
// the programs of the reconstructed bugs and a few more, each test stating what the
// documentation promises. Every schedule of these passed when they were written: a schedule
// that fails would be a finding, kept here as a known issue with its seed.

extension Catalogue {
  @Suite("swift-async-algorithms 1.1.4 and swift-service-lifecycle 2.13.0, explored")
  struct CurrentReleases {
    // MARK: AsyncChannel: "send(_:) suspends until the element is consumed"; cancelling an
    // iteration ends it with nil; "finish() resumes all pending sends and iterations".

    @Test func aCancelledWaitingIterationThenASendNeitherCrashesNorLosesTheSender() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        let channel = AsyncChannel<Int>()
        let iteration = Task {
          var iterator = channel.makeAsyncIterator()
          return await iterator.next()
        }
        let sender = Task { await channel.send(1) }
        let canceller = Task {
          for _ in 0..<3 { await Task.yield() }
          iteration.cancel()
        }
        #expect([1, nil].contains(await iteration.value))
        await canceller.value
        channel.finish()
        await sender.value
      }
    }

    @Test func anIterationCancelledBeforeItsFirstNextEndsWithNil() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        let channel = AsyncChannel<Int>()
        let iteration = Task {
          var iterator = channel.makeAsyncIterator()
          return await iterator.next()
        }
        let canceller = Task { iteration.cancel() }
        await canceller.value
        #expect(await iteration.value == nil)
      }
    }

    @Test func twoSendersAndTwoIterationsDeliverEveryElementOnce() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        let channel = AsyncChannel<Int>()
        let senders = [1, 2].map { element in Task { await channel.send(element) } }
        let iterations = (0..<2).map { _ in
          Task {
            var iterator = channel.makeAsyncIterator()
            return await iterator.next()
          }
        }
        var received: [Int] = []
        for iteration in iterations { received += [await iteration.value].compactMap { $0 } }
        for sender in senders { await sender.value }
        #expect(received.sorted() == [1, 2])
      }
    }

    @Test func finishEndsAWaitingIterationAndAPendingSendInEveryOrder() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        let channel = AsyncChannel<Int>()
        let iteration = Task {
          var received: [Int] = []
          for await element in channel { received.append(element) }
          return received
        }
        let sender = Task { await channel.send(1) }
        let finisher = Task { channel.finish() }
        await finisher.value
        await sender.value
        #expect([[], [1]].contains(await iteration.value))
      }
    }

    @Test func aThrowingChannelsFailureReachesAnIterationInEveryOrder() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        struct Failure: Error {}
        let channel = AsyncThrowingChannel<Int, any Error>()
        let iteration = Task {
          var iterator = channel.makeAsyncIterator()
          return try await iterator.next()
        }
        let failing = Task { channel.fail(Failure()) }
        await failing.value
        await #expect(throws: Failure.self) { try await iteration.value }
      }
    }

    // MARK: merge: "the merged sequence ends when all bases end"; cancelling its iterating task
    // ends the iteration.

    @Test func aMergeCancelledAroundItsFirstNextEndsWithoutCrashing() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        let (first, firstInput) = AsyncStream.makeStream(of: Int.self)
        let (second, secondInput) = AsyncStream.makeStream(of: Int.self)
        firstInput.yield(1)
        firstInput.finish()
        secondInput.finish()
        let iteration = Task {
          var received: [Int] = []
          for await element in merge(first, second) { received.append(element) }
          return received
        }
        let canceller = Task { iteration.cancel() }
        await canceller.value
        #expect([[], [1]].contains(await iteration.value))
      }
    }

    @Test func aMergeDeliversEveryElementOfItsBasesInEveryOrder() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        let first = AsyncChannel<Int>()
        let second = AsyncChannel<Int>()
        let producers = [
          Task {
            await first.send(1)
            first.finish()
          },
          Task {
            await second.send(2)
            await second.send(3)
            second.finish()
          },
        ]
        var received: [Int] = []
        for await element in merge(first, second) { received.append(element) }
        for producer in producers { await producer.value }
        #expect(received.sorted() == [1, 2, 3])
        #expect(received.firstIndex(of: 2)! < received.firstIndex(of: 3)!)
      }
    }

    // MARK: debounce: "awaits the interval without another element before emitting the latest
    // one", and emits the pending element when the base finishes. The test scheduler's
    // `advance` runs what each step of time makes runnable before it returns, so in every
    // order: 1 is dropped (2 came 5 ms later), 2 comes out after 10 quiet ms, 3 at the end.

    @Test func debounceOnATestSchedulersClockDropsWhatIsOvertakenAndKeepsTheLast() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        let scheduler = DispatchQueue.test
        let (upstream, input) = AsyncStream.makeStream(of: Int.self)
        let consumer = Task {
          var received: [Int] = []
          for await element in upstream.debounce(for: .milliseconds(10), clock: scheduler.clock) {
            received.append(element)
          }
          return received
        }
        input.yield(1)
        await scheduler.advance(by: .milliseconds(5))
        input.yield(2)
        await scheduler.advance(by: .milliseconds(20))
        input.yield(3)
        await scheduler.advance(by: .milliseconds(1))
        input.finish()
        await scheduler.advance(by: .milliseconds(20))
        let received = await consumer.value
        #expect(received == [2, 3])
      }
    }

    // MARK: ServiceGroup: "triggerGracefulShutdown() ... the group shuts down its services" —
    // with 2.13.0, also when it comes before run()
    // (swift-server/swift-service-lifecycle issue 248).

    @Test func aGroupShutDownRightBeforeOrAfterRunRunsItsServiceAndCleansUp() async {
      await exploreSchedules(.exploring(schedules: catalogueSchedules)) {
        let service = CleaningServiceBox()
        let group = ServiceGroup(
          configuration: ServiceGroupConfiguration(
            services: [service], logger: Logger(label: "catalogue")))
        let runner = Task { try await group.run() }
        let stopper = Task { await group.triggerGracefulShutdown() }
        await stopper.value
        await #expect(throws: Never.self) { try await runner.value }
        #expect(service.cleanUps.withLock { $0 } == 1)
      }
    }
  }
}

/// A service that waits for the graceful shutdown, then counts its clean-up.
final class CleaningServiceBox: Service, Sendable {
  let cleanUps = Mutex(0)
  func run() async throws {
    try? await gracefulShutdown()
    cleanUps.withLock { $0 += 1 }
  }
}

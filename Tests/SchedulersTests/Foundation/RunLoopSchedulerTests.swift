import Foundation
import Schedulers
import Testing

/// Tests of the package's own run-loop scheduler (where Combine is imported, the conformance
/// is Combine's). Real time: every wait is bounded and only reached on failure.
#if !canImport(Combine)
  @Suite("RunLoop scheduler")
  struct RunLoopSchedulerTests {
    @Test func schedulesOnTheRunLoopsThread() {
      let loop = RunLoopThread()
      let ran = DispatchSemaphore(value: 0)
      let onLoop = Recorder<Bool>()
      loop.runLoop.schedule {
        onLoop.append(RunLoop.current === loop.runLoop)
        ran.signal()
      }
      #expect(ran.wait(timeout: .now() + 60) == .success)
      #expect(onLoop.values == [true])
    }

    /// Measured on the monotonic clock, by which a run-loop timer fires. `Date`, the run
    /// loop's own `now`, is the wall clock, and at the moment of firing it once read a little
    /// before the deadline it was given (1 of 10 full-suite runs with both cores busy): two
    /// clocks, not an early action. The 1 ms margin still tells "at its date" from "at once".
    @Test func runsDelayedWorkNoEarlierThanItsDate() {
      let loop = RunLoopThread()
      let ran = DispatchSemaphore(value: 0)
      let scheduledAt = DispatchTime.now().uptimeNanoseconds
      let deadline = loop.runLoop.now.advanced(by: .milliseconds(20))
      let waited = Recorder<UInt64>()
      loop.runLoop.schedule(after: deadline) {
        waited.append(DispatchTime.now().uptimeNanoseconds - scheduledAt)
        ran.signal()
      }
      #expect(ran.wait(timeout: .now() + 60) == .success)
      #expect(waited.values.first.map { $0 >= 19_000_000 } == true, "\(waited.values) ns")
    }

    @Test func repeatingWorkTicksUntilCancelled() {
      let loop = RunLoopThread()
      let ticks = Counter()
      let thirdTick = DispatchSemaphore(value: 0)
      let timer = loop.runLoop.schedule(after: loop.runLoop.now, interval: .milliseconds(2)) {
        ticks.increment()
        if ticks.value == 3 { thirdTick.signal() }
      }
      #expect(thirdTick.wait(timeout: .now() + 60) == .success)
      timer.cancel()
      expectNoMoreTicks(of: ticks, on: loop)
    }

    @Test func releasingTheCancellableStopsTheTimer() {
      let loop = RunLoopThread()
      let ticks = Counter()
      let firstTick = DispatchSemaphore(value: 0)
      do {
        let timer = AnyCancellable(
          loop.runLoop.schedule(after: loop.runLoop.now, interval: .milliseconds(2)) {
            ticks.increment()
            if ticks.value == 1 { firstTick.signal() }
          })
        #expect(firstTick.wait(timeout: .now() + 60) == .success)
        _ = timer
      }
      expectNoMoreTicks(of: ticks, on: loop)
    }

    @Test func theErasedMainRunLoopReadsTheClock() {
      let before = Date()
      let scheduler: AnySchedulerOf<RunLoop> = .main
      #expect(scheduler.now.date >= before)
      #expect(scheduler.minimumTolerance == .zero)
    }

    /// A stopped timer ticks no more over ten of its 2 ms intervals. A tick already running
    /// when it stopped finishes first: a block performed on the loop after it runs after it.
    func expectNoMoreTicks(
      of ticks: Counter, on loop: RunLoopThread,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      let drained = DispatchSemaphore(value: 0)
      loop.runLoop.schedule { drained.signal() }
      #expect(drained.wait(timeout: .now() + 60) == .success, sourceLocation: sourceLocation)
      let afterStop = ticks.value
      let waited = DispatchSemaphore(value: 0)
      loop.runLoop.schedule(after: loop.runLoop.now.advanced(by: .milliseconds(20))) {
        waited.signal()
      }
      #expect(waited.wait(timeout: .now() + 60) == .success, sourceLocation: sourceLocation)
      #expect(ticks.value == afterStop, sourceLocation: sourceLocation)
    }
  }

  @Suite("Run-loop and operation-queue time and stride")
  struct DateSchedulerTimeTypeTests {
    typealias Time = RunLoop.SchedulerTimeType
    typealias Stride = Time.Stride

    @Test func literalsAreSeconds() {
      let fromInteger: Stride = 2
      let fromFloat: Stride = 0.25
      #expect(fromInteger.timeInterval == 2)
      #expect(fromFloat.timeInterval == 0.25)
      #expect(fromInteger.magnitude == 2)
    }

    @Test func unitsConvertToSeconds() {
      #expect(Stride.seconds(3).timeInterval == 3)
      #expect(Stride.seconds(1.5).timeInterval == 1.5)
      #expect(Stride.milliseconds(250).timeInterval == 0.25)
      #expect(Stride.microseconds(5).timeInterval == 5e-6)
      #expect(Stride.nanoseconds(7).timeInterval == 7e-9)
      #expect(Stride(exactly: 4)?.timeInterval == 4)
    }

    @Test func durationsRoundTrip() {
      #expect(Stride(.milliseconds(300)).timeInterval == 0.3)
      #expect(Stride.seconds(2).duration == .seconds(2))
      #expect(Duration(Stride.milliseconds(250)) == .milliseconds(250))
    }

    @Test func arithmeticAndDistance() {
      let start = Time(Date(timeIntervalSince1970: 100))
      let later = start.advanced(by: .seconds(2) + .milliseconds(500))
      #expect(start.distance(to: later) == .milliseconds(2_500))
      #expect(later.distance(to: start) == -.milliseconds(2_500))
      #expect(start < later)
      var stride = Stride.seconds(1)
      stride -= .milliseconds(250)
      #expect(stride == 0.75)
    }

    @Test func descriptionsUseTheLargestWholeUnit() {
      #expect("\(Stride.seconds(2))" == "2 s")
      #expect("\(Stride.milliseconds(300))" == "300 ms")
      #expect("\(Stride.microseconds(5))" == "5 µs")
      #expect("\(Stride(1e-10))" == "1e-10 s")
    }

    @Test func theTwoTimeTypesAreDistinct() {
      #expect(RunLoop.SchedulerTimeType.self != OperationQueue.SchedulerTimeType.self)
    }
  }
#endif

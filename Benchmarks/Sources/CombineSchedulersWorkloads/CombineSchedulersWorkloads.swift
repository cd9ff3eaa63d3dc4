// The peers' side of each workload, with combine-schedulers 1.2.2 (and OpenCombine 0.14.0 on
// Linux, which it uses by itself there). Only standard-library types cross this module's
// boundary, so this package's `DispatchQueue` extensions never meet combine-schedulers' ones.

import CombineSchedulers
import Dispatch
import OpenCombineShim

/// Counts actions; each workload's actions run one at a time on the advancing thread.
final class Tally: @unchecked Sendable {
  var count = 0
}

/// combine-schedulers' versions of the benchmark workloads. Each returns how many actions ran.
public enum CombineSchedulersWorkloads {
  /// `TestScheduler`: schedule at the given offsets (nanoseconds), advance past `horizon`.
  public static func random(offsets: [Int], horizon: Int) -> Int {
    randomDeadlines(offsets: offsets, horizon: horizon, eraseToAnyScheduler: false)
  }

  /// The same through combine-schedulers' `AnySchedulerOf<DispatchQueue>`.
  public static func anyRandom(offsets: [Int], horizon: Int) -> Int {
    randomDeadlines(offsets: offsets, horizon: horizon, eraseToAnyScheduler: true)
  }

  private static func randomDeadlines(offsets: [Int], horizon: Int, eraseToAnyScheduler: Bool)
    -> Int
  {
    let test = DispatchQueue.test
    let tally = Tally()
    let start = test.now
    if eraseToAnyScheduler {
      let scheduler = test.eraseToAnyScheduler()
      for offset in offsets {
        scheduler.schedule(after: start.advanced(by: .nanoseconds(offset))) { tally.count += 1 }
      }
    } else {
      for offset in offsets {
        test.schedule(after: start.advanced(by: .nanoseconds(offset))) { tally.count += 1 }
      }
    }
    test.advance(by: .nanoseconds(horizon))
    return tally.count
  }

  /// Repeating schedules at the offsets, every other one cancelled before the advance.
  public static func cancelHalf(offsets: [Int], horizon: Int) -> Int {
    let scheduler = DispatchQueue.test
    let tally = Tally()
    let start = scheduler.now
    var kept: [any Cancellable] = []
    for (index, offset) in offsets.enumerated() {
      let cancellable = scheduler.schedule(
        after: start.advanced(by: .nanoseconds(offset)), interval: .nanoseconds(2 * horizon)
      ) { tally.count += 1 }
      if index % 2 == 0 { cancellable.cancel() } else { kept.append(cancellable) }
    }
    scheduler.advance(by: .nanoseconds(horizon))
    for cancellable in kept { cancellable.cancel() }
    return tally.count
  }

  /// Each action schedules the next 1 ms later; one advance runs the chain.
  public static func chain(size: Int, horizon: Int) -> Int {
    let scheduler = DispatchQueue.test
    let tally = Tally()
    @Sendable func step() {
      tally.count += 1
      if tally.count < size {
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1)), step)
      }
    }
    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1)), step)
    scheduler.advance(by: .nanoseconds(horizon))
    return tally.count
  }

  /// `size` actions at the same instant, one advance.
  public static func sameInstant(size: Int) -> Int {
    let scheduler = DispatchQueue.test
    let tally = Tally()
    let date = scheduler.now.advanced(by: .milliseconds(1))
    for _ in 0..<size {
      scheduler.schedule(after: date) { tally.count += 1 }
    }
    scheduler.advance(by: .milliseconds(1))
    return tally.count
  }

  /// combine-schedulers' `ImmediateScheduler`: `size` actions, each run at once.
  public static func immediate(size: Int) -> Int {
    let scheduler = DispatchQueue.immediate
    let tally = Tally()
    let date = scheduler.now
    for _ in 0..<size {
      scheduler.schedule(after: date) { tally.count += 1 }
    }
    return tally.count
  }

  /// Combine's `debounce` (OpenCombine on Linux) on combine-schedulers' `TestScheduler`:
  /// `size` elements spaced wider than the interval, so each passes.
  public static func debounce(size: Int) -> Int {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let tally = Tally()
    let subscription = subject.debounce(for: .milliseconds(1), scheduler: scheduler)
      .sink { _ in tally.count += 1 }
    for element in 0..<size {
      subject.send(element)
      scheduler.advance(by: .milliseconds(2))
    }
    subscription.cancel()
    return tally.count
  }

  /// OpenCombine's `DispatchQueue` scheduler: `size` actions on a serial queue in one group.
  public static func dispatchSerial(size: Int) -> Int {
    let queue = DispatchQueue(label: "peer-bench.opencombine")
    let tally = Tally()
    let group = DispatchGroup()
    let options = DispatchQueue.SchedulerOptions(group: group)
    for _ in 0..<size {
      queue.schedule(options: options) { tally.count += 1 }
    }
    group.wait()
    return tally.count
  }

  /// A `TestScheduler` holding `offsets.count` pending empty actions, for a memory reading.
  public static func pending(offsets: [Int]) -> AnyObject {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    for offset in offsets {
      scheduler.schedule(after: start.advanced(by: .nanoseconds(offset))) {}
    }
    return scheduler
  }
}

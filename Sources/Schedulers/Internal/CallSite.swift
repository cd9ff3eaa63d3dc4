/// Where work was scheduled, carried to the scheduler in a task-local because the protocol's
/// requirements cannot take default `#fileID` arguments.
///
/// Plain data (a static string and a line), so that reading the task-local on every schedule
/// stays cheap.
@usableFromInline
struct CallSite: Sendable, CustomStringConvertible {
  let fileID: StaticString
  let line: UInt
  /// For a timer's successive sleeps: the place they keep among work due at the same instant.
  @usableFromInline var place: SameInstantPlace? = nil

  @usableFromInline var description: String { "\(fileID):\(line)" }

  @usableFromInline @TaskLocal static var current: CallSite?
}

/// The place a timer's ticks keep among work due at the same instant, as a repeating action's
/// do: the order a test scheduler gave the first tick, reused for every later one. So two
/// timers (every 2 s and every 3 s) both due at 6 s tick in the order they were started, as
/// `schedule(after:interval:)` timers do (and as in combine-schedulers), whichever of them
/// registered its sleep for 6 s first.
@usableFromInline
final class SameInstantPlace: @unchecked Sendable {
  // `@unchecked Sendable`: `order` is read and written only under the lock of the one test
  // scheduler the timer sleeps on. (After about four billion insertions a test scheduler
  // renumbers its pending work; a place taken before then may then come after work scheduled
  // later at the same instant.)
  @usableFromInline var order: UInt32?
  @usableFromInline init() {}
}

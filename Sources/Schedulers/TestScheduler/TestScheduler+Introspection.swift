extension TestScheduler {
  /// The actions waiting to run, in the order they would run.
  ///
  /// Cancelled work never appears: cancelling removes it from the queue at once.
  ///
  /// ```swift
  /// #expect(scheduler.pendingWork.map(\.dueIn) == [.milliseconds(300)])
  /// ```
  ///
  /// - Complexity: O(n log n) for n pending actions.
  public var pendingWork: [PendingWork<SchedulerTimeType>] {
    let (now, entries) = state.withLock { ($0.now, $0.queue.sortedEntries()) }
    return entries.map { Self.describe($0, now: now) }
  }

  static func describe(
    _ entry: ScheduleQueue<SchedulerTimeType>.Entry, now: SchedulerTimeType
  ) -> PendingWork<SchedulerTimeType> {
    let site = entry.handle?.callSite
    return PendingWork(
      deadline: entry.deadline, dueIn: now.distance(to: entry.deadline),
      interval: entry.handle?.interval, fileID: site.map { "\($0.fileID)" }, line: site?.line,
      label: entry.handle?.label)
  }

  /// Runs exactly the next pending action, whatever its deadline, moving the clock to it
  /// (never back), and returns what it ran; `nil` when nothing is pending.
  ///
  /// ```swift
  /// model.start()
  /// let ran = scheduler.step()
  /// #expect(ran?.interval == .seconds(1))
  /// ```
  ///
  /// - Precondition: no other advance is running.
  @discardableResult
  public func step() -> PendingWork<SchedulerTimeType>? {
    beginAdvancing("step()")
    defer { endAdvancing() }
    // One lock pops the action and reads what it was, so work scheduled by another thread in
    // between cannot make the answer describe a different action.
    guard let (entry, now, _) = popNextEntry(dueBy: nil) else { return nil }
    entry.action()
    return Self.describe(entry, now: now)
  }
}

extension TestScheduler {
  /// What an auto-advancing deterministic run does when nothing else can go on: runs the next
  /// pending action, like ``step()``, and returns what it ran. `nil` when nothing is pending,
  /// or when an advance is already running (the run then does not interleave with it).
  package func stepForAutoAdvance() -> PendingWork<SchedulerTimeType>? {
    let caller = (thread: currentThreadID(), task: currentTaskID())
    let free = state.withLock { state -> Bool in
      guard state.advancing == nil else { return false }
      state.advancing = caller
      return true
    }
    guard free else { return nil }
    defer { endAdvancing() }
    guard let (entry, now, _) = popNextEntry(dueBy: nil) else { return nil }
    entry.action()
    return Self.describe(entry, now: now)
  }
}

extension TestScheduler {
  /// Makes every change to this scheduler's queue check the queue's invariants (O(n) each),
  /// for the differential fuzz tests: a broken heap order or a stale handle stops the process
  /// with a message naming it, at the change that broke it.
  package func checkInvariantsOnEveryChange() {
    state.withLock { $0.queue.checksInvariants = true }
  }
}

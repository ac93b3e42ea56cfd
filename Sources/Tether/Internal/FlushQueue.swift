/// The `observe { }` re-runs one actor owes: every tracker marked dirty since the last flush,
/// run together by one job on the actor.
///
/// A burst of changes (a view model setting `isLoading` and `rows` in one method, 1,000
/// properties set in a loop) schedules exactly one job, however many trackers it dirties; each
/// dirty tracker runs once in it, after the burst, so it sees every change at once. Trackers
/// dirtied *during* a flush (a run that sets what another run reads) wait for the next job, so
/// a run that keeps changing its own inputs cannot hold the actor forever.
///
/// Changes of `@Observable` objects arrive differently: Observation calls `onChange` on
/// whatever thread set the model. Those wake-ups are posted to a locked inbox, and the first
/// post of a burst schedules one job on the actor that re-runs every tracker posted since, so
/// 1,000 observations woken by 1,000 model changes also cost one job.
///
/// `@unchecked Sendable` so the registry can hand one queue to every observation of an actor,
/// and Observation's callbacks can post to it. Proof that no state is shared: `pending`,
/// `spare`, `isScheduled` and `isFlushing` are read and written only on `isolation`: by
/// ``enqueue(_:)``, called from trackers confined to that actor, and by `flush()`, which runs in
/// the job `schedule` creates or in `flushNow(isolation:)`, both isolated to that actor. `inbox`, the one state touched from other
/// threads, is `Locked`.
internal final class FlushQueue: @unchecked Sendable {
  /// The actor whose trackers this queue runs.
  let isolation: any Actor
  private var pending: ContiguousArray<DependencyTracker> = []
  /// The list being flushed, kept to reuse its storage.
  private var spare: ContiguousArray<DependencyTracker> = []
  private var isScheduled = false
  /// Set while trackers run, so a flush asked for from inside a run (a nested
  /// ``flushObservations(isolation:)``) leaves the list being run alone.
  private var isFlushing = false
  /// Starts a job on `isolation` that flushes this queue. Made in an isolated context, so the
  /// task it creates runs on the actor with no hop through the global executor.
  private var schedule: () -> Void = {}
  /// Trackers woken by Observation from any thread, each with the run whose reads it reported,
  /// and whether a job to drain them is already scheduled.
  private let inbox = Locked<(wakeUps: [(DependencyTracker, UInt64)], isScheduled: Bool)>(
    ([], false))

  private init(isolation: isolated any Actor) {
    self.isolation = isolation
    schedule = { [unowned self] in
      let queue = self
      Task {
        _ = isolation
        queue.flush()
      }
    }
  }

  deinit {
    FlushQueueRegistry.removeReleasedQueues()
  }

  /// The queue shared by every observation of `isolation`.
  static func shared(by isolation: isolated any Actor) -> FlushQueue {
    FlushQueueRegistry.queue(for: isolation) { FlushQueue(isolation: isolation) }
  }

  /// From any thread: an `@Observable` property read by run `run` of `tracker` has changed.
  func post(_ tracker: DependencyTracker, after run: UInt64) {
    let mustSchedule = inbox.withLock { inbox in
      inbox.wakeUps.append((tracker, run))
      defer { inbox.isScheduled = true }
      return !inbox.isScheduled
    }
    if mustSchedule {
      Task { await self.drainInbox(isolation: isolation) }
    }
  }

  private func drainInbox(isolation: isolated any Actor) {
    let wakeUps = inbox.withLock { inbox in
      inbox.isScheduled = false
      return inbox.wakeUps.exchange(with: [])
    }
    for (tracker, run) in wakeUps {
      tracker.observationDidChange(after: run)
    }
  }

  func enqueue(_ tracker: DependencyTracker) {
    pending.append(tracker)
    if !isScheduled {
      isScheduled = true
      schedule()
    }
  }

  private func flush() {
    if isFlushing { return }
    isFlushing = true
    defer { isFlushing = false }
    isScheduled = false
    swap(&pending, &spare)
    for tracker in spare where tracker.isDirty {
      tracker.run()
    }
    spare.removeAll(keepingCapacity: spare.capacity <= 4_096)
  }

  /// ``flushObservations(isolation:)``: rounds of flushes until nothing is pending. A job
  /// already scheduled then finds nothing to do. The inbox of Observation's wake-ups is left to
  /// its own job: Observation calls `onChange` before a writing thread stores the new value, so
  /// a re-run forced at once could read the old one and miss the change for good.
  func flushNow(isolation: isolated any Actor) {
    guard !isFlushing else { return }
    var rounds = 0
    while !pending.isEmpty, rounds < 1_000 {
      flush()
      rounds += 1
    }
  }
}

/// One queue per live actor, found by the actor's identity.
private enum FlushQueueRegistry {
  private struct Entry: Sendable {
    weak var queue: FlushQueue?
  }

  /// A queue keeps its actor alive (its `schedule` closure holds it), so while an entry's
  /// queue exists no other actor can have the same identity.
  private static let queues = Locked<[ObjectIdentifier: Entry]>([:])

  static func queue(
    for isolation: any Actor, orMake make: () -> FlushQueue
  ) -> FlushQueue {
    let key = ObjectIdentifier(isolation)
    if let queue = queues.withLock({ $0[key]?.queue }) { return queue }
    let queue = make()
    return queues.withLock { queues in
      if let existing = queues[key]?.queue { return existing }
      queues[key] = Entry(queue: queue)
      return queue
    }
  }

  static func removeReleasedQueues() {
    queues.withLock { queues in
      queues = queues.filter { $0.value.queue != nil }
    }
  }
}

extension Array {
  /// Returns the array's elements and leaves `replacement` in its place.
  fileprivate mutating func exchange(with replacement: [Element]) -> [Element] {
    let elements = self
    self = replacement
    return elements
  }
}

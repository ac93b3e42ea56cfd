import Observation
import TetherTrackingSupport

/// The state of one `observe { }`: what its latest run read, and whether it must run again.
///
/// A tracker subscribes to each Tether property its run reads with one observer entry whose
/// only work is ``setNeedsRun()``: mark the tracker dirty and, the first time in a burst, put it
/// on its actor's ``FlushQueue``. The queue runs every dirty tracker of the actor in one job, so
/// an observation costs no task, no stream and no allocation per change.
///
/// `@unchecked Sendable`, because Observation's `onChange` callback must be `@Sendable` and
/// may fire on any thread. Proof that no state is shared: every stored property is read and
/// written only on `queue.isolation`. The tracker is created there (by `observe`, which is
/// isolated to it), run there (first by `observe`, then by `FlushQueue.flush`, a job on that
/// actor), marked dirty there (by the entries of properties confined to that actor), and
/// cancelled there (by its token, which is not `Sendable`). The one reference that leaves the
/// actor is the capture in Observation's `onChange`, which only posts it to the queue's locked
/// inbox; the queue hands it back to `observationDidChange(after:)` in a job on the actor.
@usableFromInline
internal final class DependencyTracker: @unchecked Sendable {
  /// One Tether property the latest run read: its observer list and our entry in it.
  private struct Dependency {
    /// Kept alive so that `id` names our entry and the list's address is never reused while
    /// we compare by identity; the list outlives its property harmlessly.
    let list: ObserverListBase
    let id: UInt64
    /// The run that last read it; dependencies not read by the latest run are dropped.
    var lastRead: UInt64
  }

  /// The work to re-run; dropped on cancellation, with everything it captured.
  private var apply: () -> Void
  private let queue: FlushQueue
  private var dependencies: ContiguousArray<Dependency> = []
  /// Positions in `dependencies` by list, once there are too many for a linear search.
  private var positions: [ObjectIdentifier: Int]?
  /// Counts runs; the current run's number stamps the dependencies it reads.
  private var runs: UInt64 = 0
  /// Waiting in the queue for the next flush.
  private(set) var isDirty = false
  /// How many reads this tracker has recorded, ever: what ``trackedReads(_:)`` counts.
  private(set) var reads = 0
  private(set) var isCancelled = false

  /// Above this many dependencies, reads are found through `positions`.
  private static let linearSearchLimit = 12

  init(apply: @escaping () -> Void, queue: FlushQueue, debugLog: ((String) -> Void)? = nil) {
    self.apply = apply
    self.queue = queue
    debugger = debugLog.map(Debugger.init)
  }

  /// What `observe(debug:)` keeps: where it writes why each run happens, and the changes since
  /// the last run. `nil` for every other observation, which then pays one word for it.
  private final class Debugger {
    let log: (String) -> Void
    var reasons: [String] = []
    init(log: @escaping (String) -> Void) { self.log = log }
  }
  private let debugger: Debugger?

  /// Whether this tracker says why it runs (its dependencies then describe their changes).
  var isDebugging: Bool { debugger != nil }

  /// A property this tracker read has changed, as `reason` says: run again in the actor's next
  /// flush, and say why.
  func setNeedsRun(because reason: String) {
    guard !isCancelled, let debugger else { return }
    // A burst of many changes keeps the first few reasons and counts the rest.
    if debugger.reasons.count < 8 {
      debugger.reasons.append(reason.count <= 200 ? reason : String(reason.prefix(200)) + "…")
    } else if debugger.reasons.count == 8 {
      debugger.reasons.append("and more")
    }
    setNeedsRun()
  }

  /// Called from ``Property/value`` while a run of this tracker is on the thread.
  @usableFromInline
  static func recordRead(of list: ObserverListBase, in tracker: UnsafeMutableRawPointer) {
    if tracker == unobservedMarker { return }
    Unmanaged<DependencyTracker>.fromOpaque(tracker).takeUnretainedValue().record(list)
  }

  /// What the thread's current tracker is set to inside ``unobserved(_:)``: no tracker's
  /// address (an object is never at address 1).
  static var unobservedMarker: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 1) }

  private func record(_ list: ObserverListBase) {
    if isCancelled { return }
    reads &+= 1
    if let position = position(of: list) {
      dependencies[position].lastRead = runs
      return
    }
    // The entry is this tracker, unretained: it is removed (by `prune` or `cancel`)
    // before the tracker can be freed, since the token owns the tracker and cancels it in its
    // `deinit`, and a queue holding a dirty tracker holds it strongly.
    let id = list.addDependent(self)
    dependencies.append(Dependency(list: list, id: id, lastRead: runs))
    if positions != nil {
      positions?[ObjectIdentifier(list)] = dependencies.count - 1
    } else if dependencies.count > Self.linearSearchLimit {
      indexPositions()
    }
  }

  private func indexPositions() {
    positions = Dictionary(
      uniqueKeysWithValues: dependencies.indices.map {
        (ObjectIdentifier(dependencies[$0].list), $0)
      })
  }

  private func position(of list: ObserverListBase) -> Int? {
    if let positions { return positions[ObjectIdentifier(list)] }
    return dependencies.firstIndex { $0.list === list }
  }

  /// A property this tracker read has changed: run again in the actor's next flush.
  func setNeedsRun() {
    guard !isDirty, !isCancelled else { return }
    isDirty = true
    queue.enqueue(self)
  }

  /// Runs `apply`, recording what it reads, then drops what it no longer reads.
  func run() {
    guard !isCancelled else { return }
    isDirty = false
    if let debugger {
      let reasons = debugger.reasons
      debugger.reasons = []
      debugger.log(
        runs == 0
          ? "first run"
          : "runs again: " + (reasons.isEmpty ? "asked to" : reasons.joined(separator: "; ")))
    }
    runs &+= 1
    let run = runs
    let outer = tether_get_current_tracker()
    tether_set_current_tracker(Unmanaged.passUnretained(self).toOpaque())
    withObservationTracking(apply) { [self] in
      // Any thread, inside the model's willSet: the queue brings it back to the actor. The
      // capture is strong: Observation keeps this closure only until the model's next change,
      // and a cancelled tracker has already let go of `apply` and its dependencies.
      queue.post(self, after: run)
    }
    tether_set_current_tracker(outer)
    prune()
  }

  /// On the tracker's actor: an `@Observable` property read by run number `run` has changed.
  func observationDidChange(after run: UInt64) {
    // A later run has already seen the change (and registered again); a dirty tracker will
    // run in the flush that is already scheduled.
    guard run == runs, !isDirty else { return }
    debugger?.reasons.append("an @Observable property it read changed")
    self.run()
  }

  private func prune() {
    if isCancelled {
      removeAll()
      return
    }
    let current = runs
    guard dependencies.contains(where: { $0.lastRead != current }) else { return }
    for dependency in dependencies where dependency.lastRead != current {
      dependency.list.removeObserver(id: dependency.id)
    }
    dependencies.removeAll { $0.lastRead != current }
    if positions != nil {
      positions = nil
      if dependencies.count > Self.linearSearchLimit { indexPositions() }
    }
  }

  private func removeAll() {
    let removed = dependencies
    dependencies = []
    positions = nil
    for dependency in removed { dependency.list.removeObserver(id: dependency.id) }
  }

  /// Ends the observation: no run starts after this.
  func cancel() {
    guard !isCancelled else { return }
    isCancelled = true
    apply = {}
    removeAll()
  }
}

/// The token `observe { }` returns: it owns the tracker and cancels it when it ends.
internal final class TrackerToken: ObservationToken {
  private let tracker: DependencyTracker

  init(_ tracker: DependencyTracker) {
    self.tracker = tracker
    super.init(owner: nil, list: nil, id: 1)
  }

  deinit {
    tracker.cancel()
  }

  override var isCancelled: Bool {
    tracker.isCancelled
  }

  override func cancel() {
    id = 0
    tracker.cancel()
  }

  override func runNow() {
    tracker.run()
  }

  override var needsRun: Bool {
    tracker.isDirty
  }
}

/// Runs `body` with no `observe { }` run tracking the reads on this thread: what it reads
/// (and what the observers of what it writes read, synchronously) is no dependency of the run
/// that called it. For a view that keeps state of its own in properties while it renders.
package func untracked<T>(_ body: () throws -> T) rethrows -> T {
  let outer = tether_get_current_tracker()
  tether_set_current_tracker(nil)
  defer { tether_set_current_tracker(outer) }
  return try body()
}

/// Runs `body` with its reads registered nowhere: neither with an `observe { }` run nor with
/// Apple's Observation. For a view layer's renders outside its own `observe { }` run (a page's
/// first HTML, a reconnect), whose reads that run already tracks: registering them with
/// Observation would give each property it reads a registrar no one watches.
package func unobserved<T>(_ body: () throws -> T) rethrows -> T {
  let outer = tether_get_current_tracker()
  tether_set_current_tracker(DependencyTracker.unobservedMarker)
  defer { tether_set_current_tracker(outer) }
  return try body()
}

/// Runs `body` and says how many reads of Tether properties the `observe { }` run on this
/// thread recorded during it (0 outside a run): for a view layer that checks, in a debug
/// build, that content it keeps by a key reads nothing beside that key.
package func trackedReads<T>(_ body: () throws -> T) rethrows -> (value: T, reads: Int) {
  guard let pointer = tether_get_current_tracker(), pointer != DependencyTracker.unobservedMarker
  else { return (try body(), 0) }
  let tracker = Unmanaged<DependencyTracker>.fromOpaque(pointer).takeUnretainedValue()
  let before = tracker.reads
  let value = try body()
  return (value, tracker.reads &- before)
}

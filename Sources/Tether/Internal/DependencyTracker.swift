import Observation
import TetherTrackingSupport

/// The state of one `observe { }`: what it read last time and how it is woken up.
@usableFromInline
internal final class DependencyTracker {
  private let apply: () -> Void
  private let wakeUp: AsyncStream<Void>.Continuation
  /// Subscriptions to the Tether properties read by the latest run, by observer list.
  private var dependencies: [ObjectIdentifier: ObservationToken] = [:]
  /// The lists read during the run in progress.
  private var readsThisRun: Set<ObjectIdentifier> = []
  private(set) var isCancelled = false

  init(apply: @escaping () -> Void, wakeUp: AsyncStream<Void>.Continuation) {
    self.apply = apply
    self.wakeUp = wakeUp
  }

  /// Called from ``Property/value`` while a run of this tracker is on the thread.
  @usableFromInline
  static func recordRead(of list: ObserverListBase, in tracker: UnsafeMutableRawPointer) {
    Unmanaged<DependencyTracker>.fromOpaque(tracker).takeUnretainedValue().record(list)
  }

  private func record(_ list: ObserverListBase) {
    let id = ObjectIdentifier(list)
    guard readsThisRun.insert(id).inserted else { return }
    // A cancelled token means the list it watched is gone and `id` may be a new list at a
    // reused address: subscribe again.
    if let existing = dependencies[id], !existing.isCancelled { return }
    let wakeUp = self.wakeUp
    dependencies[id] = list.addChangeObserver { wakeUp.yield() }
  }

  func run() {
    guard !isCancelled else { return }
    readsThisRun.removeAll(keepingCapacity: true)
    let outer = tether_get_current_tracker()
    tether_set_current_tracker(Unmanaged.passUnretained(self).toOpaque())
    let wakeUp = self.wakeUp
    withObservationTracking(apply, onChange: { wakeUp.yield() })
    tether_set_current_tracker(outer)
    if dependencies.count != readsThisRun.count {
      dependencies = dependencies.filter { readsThisRun.contains($0.key) }
    }
  }

  func cancel() {
    guard !isCancelled else { return }
    isCancelled = true
    wakeUp.finish()
    dependencies = [:]
  }
}

import Testing
import Tether

@testable import TetherFlow

/// A store that keeps a list of strings and answers each write with its new version, failing
/// as scripted.
@MainActor
private final class ScriptedStore {
  enum Failure: Error, Equatable { case down, refused }
  var items: [String] = []
  var version = 0
  /// The failures the next calls meet, in order.
  var failures: [Failure] = []
  private(set) var written: [String] = []

  func write(_ item: String) async throws(Failure) -> Int {
    await Task.yield()
    if !failures.isEmpty { throw failures.removeFirst() }
    items.append(item)
    written.append(item)
    version += 1
    return version
  }

  func load() async throws(Failure) -> ([String], version: Int) {
    await Task.yield()
    if !failures.isEmpty { throw failures.removeFirst() }
    return (items, version)
  }
}

/// Changes shown at once over the confirmed value, written in order, retried, dropped when the
/// policy gives up, and reconciled with the store's feed.
@MainActor
@Suite struct OptimisticWritesTests {
  private func writes(
    _ store: ScriptedStore, attempts: Int = 5
  ) -> OptimisticWrites<[String], String, ScriptedStore.Failure> {
    OptimisticWrites(
      initial: [], apply: { item, items in items + [item] },
      write: { item throws(ScriptedStore.Failure) in try await store.write(item) },
      load: { () throws(ScriptedStore.Failure) in try await store.load() },
      retry: RetryPolicy(maximumAttempts: attempts, when: { $0 == .down }) { _ in .zero })
  }

  @Test func aChangeIsShownAtOnceAndWrittenInOrder() async {
    let store = ScriptedStore()
    let writes = writes(store)
    writes.receive([], version: 0)
    writes.submit("a")
    writes.submit("b")
    #expect(writes.value == ["a", "b"], "shown before it is written")
    #expect(!writes.isSaved)
    await writes.saved()
    #expect(writes.isSaved && store.written == ["a", "b"])
    #expect(writes.hasPending, "written, not yet shown by the feed")
    writes.receive(["a", "b"], version: 2)
    #expect(!writes.hasPending && writes.value == ["a", "b"])
  }

  /// A change from elsewhere arrives while one made here is not yet in the feed: both show,
  /// and an older snapshot changes nothing.
  @Test func theFeedIsReconciledWithThePendingChanges() async {
    let store = ScriptedStore()
    let writes = writes(store)
    writes.receive(["x"], version: 1)
    // Another tab wrote "theirs" (version 2) before this write reaches the store.
    store.items = ["x", "theirs"]
    store.version = 2
    writes.submit("mine")
    writes.receive(["x", "theirs"], version: 2)
    #expect(writes.value == ["x", "theirs", "mine"])
    writes.receive(["x"], version: 1)
    #expect(writes.value == ["x", "theirs", "mine"], "an older snapshot is ignored")
    await writes.saved()
    #expect(writes.value == ["x", "theirs", "mine"] && writes.hasPending, "written as version 3")
    writes.receive(["x", "theirs", "mine"], version: 3)
    #expect(writes.value == ["x", "theirs", "mine"] && !writes.hasPending)
  }

  @Test func anOutageIsRetriedAndSaidUntilTheStoreIsBack() async {
    let store = ScriptedStore()
    let writes = writes(store)
    writes.receive([], version: 0)
    var outages: [ScriptedStore.Failure?] = []
    let token = writes.$outage.observe { outages.append($0) }
    store.failures = [.down, .down]
    writes.submit("a")
    await writes.saved()
    #expect(store.written == ["a"])
    #expect(outages.contains(.down) && outages.last == .some(nil), "said, then gone")
    token.cancel()
  }

  @Test func aRefusalOrARunOutOfAttemptsDropsTheChangeAndTheNextIsWritten() async {
    let store = ScriptedStore()
    let writes = writes(store, attempts: 2)
    writes.receive([], version: 0)
    var dropped: [String] = []
    let token = writes.dropped.observe { change, _ in dropped.append(change) }
    store.failures = [.refused, .down, .down]
    writes.submit("refused")
    writes.submit("out of attempts")
    writes.submit("kept")
    await writes.saved()
    #expect(dropped == ["refused", "out of attempts"])
    #expect(store.written == ["kept"])
    #expect(writes.value == ["kept"], "a dropped change leaves the screen")
    token.cancel()
  }

  @Test func aValueNeverShownIsLoadedWithRetries() async {
    let store = ScriptedStore()
    store.items = ["stored"]
    store.version = 4
    store.failures = [.down]
    let writes = writes(store)
    #expect(!writes.isLoaded)
    writes.loadIfNeeded()
    await writes.saved()
    #expect(writes.isLoaded && writes.value == ["stored"] && writes.confirmedVersion == 4)
  }
}

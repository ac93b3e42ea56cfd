import Observation
import Synchronization
import Testing
import TetherTesting

@testable import Tether

@Observable
@MainActor
private final class Model {
  var firstName = "Ada"
  var lastName = "Lovelace"
  var untracked = 0
}

@MainActor
@Suite struct ObserveTests {
  @Test func runsSynchronouslyFirst() {
    let count = MutableProperty(1)
    var seen: [Int] = []
    let token = observe { seen.append(count.value) }
    #expect(seen == [1])
    _ = token
  }

  @Test func rerunsWhenATetherPropertyItReadChanges() async {
    let count = MutableProperty(1)
    var seen: [Int] = []
    let token = observe { seen.append(count.value) }
    count.value = 2
    await expectEventually { seen == [1, 2] }
    _ = token
  }

  @Test func coalescesASynchronousBurstIntoOneRun() async {
    let isLoading = MutableProperty(false)
    let cells = MutableProperty<[String]>([])
    var runs = 0
    let token = observe {
      _ = isLoading.value
      _ = cells.value
      runs += 1
    }
    isLoading.value = true
    cells.value = ["a"]
    cells.value = ["a", "b"]
    isLoading.value = false
    await expectEventually { runs >= 2 }
    await settleObservations()
    #expect(runs == 2)
    _ = token
  }

  @Test func neverSeesAHalfUpdatedCombination() async {
    let a = MutableProperty(1)
    let doubled = a.map { $0 * 2 }
    var pairs: [String] = []
    let token = observe { pairs.append("\(a.value),\(doubled.value)") }
    for value in 2...5 { a.value = value }
    await expectEventually { pairs.count >= 2 }
    await settleObservations()
    #expect(pairs == ["1,2", "5,10"])
    #expect(
      pairs.allSatisfy { pair in
        let parts = pair.split(separator: ",").compactMap { Int($0) }
        return parts.count == 2 && parts[1] == parts[0] * 2
      })
    _ = token
  }

  @Test func tracksObservableModelsAndCoalescesThem() async {
    let model = Model()
    var names: [String] = []
    let token = observe { names.append("\(model.firstName) \(model.lastName)") }
    model.firstName = "Grace"
    model.lastName = "Hopper"
    await expectEventually { names.count >= 2 }
    await settleObservations()
    #expect(names == ["Ada Lovelace", "Grace Hopper"])
    model.untracked += 1
    await settleObservations()
    #expect(names == ["Ada Lovelace", "Grace Hopper"])
    _ = token
  }

  @Test func mixedTetherAndObservableChangesCauseOneRun() async {
    let model = Model()
    let suffix = MutableProperty("!")
    var seen: [String] = []
    let token = observe { seen.append(model.firstName + suffix.value) }
    model.firstName = "Grace"
    suffix.value = "?"
    await expectEventually { seen.count >= 2 }
    await settleObservations()
    #expect(seen == ["Ada!", "Grace?"])
    model.lastName = "x"
    _ = token
  }

  @Test func dependenciesFollowTheLatestRun() async {
    let useA = MutableProperty(true)
    let a = MutableProperty("a")
    let b = MutableProperty("b")
    var seen: [String] = []
    let token = observe { seen.append(useA.value ? a.value : b.value) }
    useA.value = false
    await expectEventually { seen == ["a", "b"] }
    #expect(a.observerCount == 0)
    a.value = "a2"
    await settleObservations()
    #expect(seen == ["a", "b"])
    b.value = "b2"
    await expectEventually { seen == ["a", "b", "b2"] }
    _ = token
  }

  @Test func stopsWhenTheTokenIsCancelled() async {
    let count = MutableProperty(0)
    let model = Model()
    var runs = 0
    let token = observe {
      _ = count.value
      _ = model.firstName
      runs += 1
    }
    token.cancel()
    count.value = 1
    model.firstName = "x"
    await settleObservations()
    #expect(runs == 1)
    #expect(count.observerCount == 0)
  }

  @Test func stopsWhenTheTokenIsDeallocated() async {
    let count = MutableProperty(0)
    var runs = 0
    do {
      let token = observe {
        _ = count.value
        runs += 1
      }
      _ = token
    }
    count.value = 1
    await settleObservations()
    #expect(runs == 1)
    #expect(count.observerCount == 0)
  }

  @Test func readsOutsideARunAreNotTracked() async {
    let a = MutableProperty(0)
    var runs = 0
    let token = observe { runs += 1 }
    _ = a.value
    a.value = 1
    await settleObservations()
    #expect(runs == 1)
    #expect(a.observerCount == 0)
    _ = token
  }

  @Test func nestedObserveTracksItsOwnReads() async {
    let outer = MutableProperty(0)
    let inner = MutableProperty(0)
    var outerRuns = 0
    var innerRuns = 0
    var innerToken: ObservationToken?
    let token = observe {
      _ = outer.value
      outerRuns += 1
      if innerToken == nil {
        innerToken = observe {
          _ = inner.value
          innerRuns += 1
        }
      }
    }
    inner.value = 1
    await expectEventually { innerRuns == 2 }
    await settleObservations()
    #expect(outerRuns == 1)
    #expect(innerRuns == 2)
    _ = token
  }

  // MARK: - Scheduling: one flush per actor per burst

  @Test func everyBurstRerunsExactlyOnce() async {
    let a = MutableProperty(0)
    let doubled = a.map { $0 * 2 }
    var runs = 0
    let token = observe {
      _ = a.value
      _ = doubled.value
      runs += 1
    }
    for burst in 1...4 {
      a.value = burst
      a.value = burst * 10
      await expectEventually { runs >= burst + 1 }
      await settleObservations()
      #expect(runs == burst + 1, "burst \(burst) re-ran \(runs - burst) times")
    }
    _ = token
  }

  @Test func onlyObservationsThatReadTheChangedPropertyRerun() async {
    let properties = (0..<50).map { MutableProperty($0) }
    var runs = [Int](repeating: 0, count: properties.count)
    let tokens = properties.indices.map { index in
      observe {
        _ = properties[index].value
        runs[index] += 1
      }
    }
    properties[17].value = -1
    await expectEventually { runs[17] == 2 }
    await settleObservations()
    #expect(runs.enumerated().allSatisfy { $0.element == ($0.offset == 17 ? 2 : 1) })
    _ = tokens
  }

  @Test func aBurstAcrossManyObservationsRerunsEachOnceInOneFlush() async {
    let properties = (0..<1_000).map { MutableProperty($0) }
    var runs = 0
    let tokens = properties.map { property in
      observe {
        _ = property.value
        runs += 1
      }
    }
    for property in properties { property.value += 1 }
    for property in properties { property.value += 1 }
    // The flush was scheduled by the first change; this job is queued behind it.
    await Task.yield()
    #expect(runs == 2_000)
    await settleObservations()
    #expect(runs == 2_000)
    _ = tokens
  }

  @Test func aChangeDuringAFlushRunsInTheNextOne() async {
    let count = MutableProperty(0)
    var seen: [Int] = []
    let token = observe {
      seen.append(count.value)
      if count.value < 5 { count.value += 1 }
    }
    await expectEventually { seen.last == 5 }
    await settleObservations()
    #expect(seen == [0, 1, 2, 3, 4, 5])
    _ = token
  }

  @Test func manyDependenciesAreEachSubscribedOnceAcrossRuns() async {
    let properties = (0..<40).map { MutableProperty($0) }
    let useAll = MutableProperty(true)
    var runs = 0
    let token = observe {
      let count = useAll.value ? properties.count : 5
      for property in properties.prefix(count) { _ = property.value }
      runs += 1
    }
    // A re-run that reads the same properties keeps its subscriptions: no list hands out a
    // new observer id.
    let ids = properties.map(\.observers.nextID)
    for round in 1...3 {
      properties[round].value += 100
      await expectEventually { runs == round + 1 }
      #expect(properties.allSatisfy { $0.observerCount == 1 })
      #expect(properties.map(\.observers.nextID) == ids)
    }
    useAll.value = false
    await expectEventually { runs == 5 }
    #expect(properties.prefix(5).allSatisfy { $0.observerCount == 1 })
    #expect(properties.dropFirst(5).allSatisfy { $0.observerCount == 0 })
    properties[39].value = 0
    properties[2].value = 0
    await expectEventually { runs == 6 }
    await settleObservations()
    #expect(runs == 6)
    _ = token
  }

  @Test func anObservableChangedOnAnotherThreadRerunsOnTheObservationsActor() async {
    let model = ThreadSafeModel()
    var seen: [Int] = []
    let token = observe {
      MainActor.assertIsolated()
      seen.append(model.count)
    }
    // Observation calls onChange on the writing thread; the re-run must come back here.
    await Task.detached { model.count = 1 }.value
    await expectEventually { seen == [0, 1] }
    await Task.detached {
      model.count = 2
      model.count = 3
    }.value
    await expectEventually { seen.last == 3 }
    await settleObservations()
    // The main actor is free while the other thread writes, so a re-run may fall between the
    // two writes; what must never happen is a missed value at the end or a repeated run.
    #expect(seen == [0, 1, 3] || seen == [0, 1, 2, 3])
    _ = token
  }

  @Test func aDirtyObservationCancelledBeforeTheFlushDoesNotRun() async {
    let count = MutableProperty(0)
    var runs = 0
    let token = observe {
      _ = count.value
      runs += 1
    }
    count.value = 1
    token.cancel()
    await settleObservations()
    #expect(runs == 1)
    #expect(count.observerCount == 0)
  }

  @Test func observationsOnAnotherActorRerunOnThatActor() async {
    let counter = CounterActor()
    await counter.start()
    await counter.bump()
    #expect(await counter.waitForRuns(2) == 2)
    await counter.bump()
    #expect(await counter.waitForRuns(3) == 3)
  }

  // flushObservations(): the owed re-runs, now and deterministically.

  @Test func flushingRunsEveryOwedReRunBeforeItReturns() {
    let source = MutableProperty(0)
    var seen: [Int] = []
    let token = observe { seen.append(source.value) }
    source.value = 1
    source.value = 2
    #expect(seen == [0], "re-runs wait for the job the first change scheduled")
    flushObservations()
    #expect(seen == [0, 2], "one re-run for the burst, and it has happened")
    flushObservations()
    #expect(seen == [0, 2], "nothing owed, nothing run")
    token.cancel()
  }

  @Test func flushingFollowsARunThatDirtiesAnotherToItsEnd() {
    let source = MutableProperty(0)
    let doubled = MutableProperty(0)
    var rendered: [Int] = []
    let copier = observe { doubled.value = source.value * 2 }
    let renderer = observe { rendered.append(doubled.value) }
    source.value = 5
    flushObservations()
    #expect(rendered == [0, 10])
    copier.cancel()
    renderer.cancel()
  }

  @Test func aFlushAskedForInsideARunLeavesTheRunningFlushAlone() {
    let first = MutableProperty(0)
    let second = MutableProperty(0)
    var firstRuns = 0
    var secondRuns = 0
    let a = observe {
      _ = first.value
      firstRuns += 1
      flushObservations()
    }
    let b = observe {
      _ = second.value
      secondRuns += 1
    }
    first.value = 1
    second.value = 1
    flushObservations()
    #expect(firstRuns == 2 && secondRuns == 2, "each owed run ran once")
    a.cancel()
    b.cancel()
  }
}

/// A model written from other threads. Its one stored value is guarded by a `Mutex`, so
/// reading and writing it from any thread is safe; Observation's registrar is thread-safe too.
@Observable
private final class ThreadSafeModel: Sendable {
  @ObservationIgnored private let storage = Mutex(0)

  var count: Int {
    get {
      access(keyPath: \.count)
      return storage.withLock { $0 }
    }
    set {
      withMutation(keyPath: \.count) { storage.withLock { $0 = newValue } }
    }
  }
}

/// An actor that observes its own property: re-runs must come back to it.
private actor CounterActor {
  private let count = MutableProperty(0)
  private var runs = 0
  private var token: ObservationToken?

  func start() {
    token = observe {
      self.assertIsolated()
      _ = self.count.value
      self.runs += 1
    }
  }

  func bump() {
    count.value += 1
  }

  func waitForRuns(_ expected: Int) async -> Int {
    for _ in 0..<1_000 where runs < expected { await Task.yield() }
    return runs
  }

}

@MainActor
@Suite struct ObserveDebugTests {
  @Test func aDebuggedObservationSaysWhichChangeMadeItRunAgain() async {
    let items = MutableProperty(["tea"])
    let total = MutableProperty(3)
    let unread = MutableProperty("never read")
    var lines: [String] = []
    var seen: [Int] = []
    let token = observe(debug: "cart", to: { lines.append($0) }) {
      seen.append(items.value.count + total.value)
    }
    #expect(lines == ["cart: first run"])
    total.value = 12
    items.value = ["tea", "milk"]
    unread.value = "still not read"
    flushObservations()
    #expect(seen == [4, 14], "one run for the burst")
    #expect(
      lines.last
        == #"cart: runs again: a Property<Int> it read became 12; a Property<Array<String>> it read became ["tea", "milk"]"#
    )
    // A run asked for with no change says so; a value too long for a line is cut.
    token.runNow()
    #expect(lines.last == "cart: runs again: asked to")
    items.value = [String(repeating: "x", count: 500)]
    flushObservations()
    let last = lines.last ?? ""
    #expect(last.hasSuffix("…") && last.count < 260, "\(last.count)")
    _ = token
  }

  @Test func aDebuggedObservationSaysAnObservableChangeMadeItRunAgain() async {
    let model = Model()
    var lines: [String] = []
    let token = observe(debug: "name", to: { lines.append($0) }) { _ = model.firstName }
    model.firstName = "Grace"
    await expectEventually { lines.count == 2 }
    #expect(lines.last == "name: runs again: an @Observable property it read changed")
    _ = token
  }
}

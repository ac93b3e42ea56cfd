import Observation
import Testing
import TetherTesting

@testable import Tether

@MainActor
private final class CounterViewModel {
  @Output private(set) var count = 0
  @Output private(set) var items: [String] = []

  func increment() { count += 1 }
  func add(_ item: String) { items.append(item) }
  func addThenFail(_ item: String) throws {
    try mutate(&items) { items in
      items.append(item)
      throw Failure()
    }
  }

  struct Failure: Error {}

  private func mutate(_ value: inout [String], _ body: (inout [String]) throws -> Void) rethrows {
    try body(&value)
  }
}

/// A value with no `==`: every set of it is delivered.
private struct Opaque {
  let number: Int
}

@MainActor
private final class FilterViewModel {
  @Output private(set) var query = ""
  @Output private(set) var opaque = Opaque(number: 0)
  @Event var submitted: Signal<String>
  @Event var cleared: Signal<Void>

  func type(_ text: String) { query = text }
  func setOpaque(_ number: Int) { opaque = Opaque(number: number) }
  func touchQueryInPlace() { query.append("") }
  func submit() { _submitted.send(query) }
  func clear() {
    query = ""
    _cleared.send()
  }
}

@MainActor
@Suite struct OutputTests {
  @Test func theFaceIsAPlainPropertyThatNoCastCanWriteThrough() {
    let viewModel = CounterViewModel()
    let face: Property<Int> = viewModel.$count
    #expect(!(face is MutableProperty<Int>), "a view could downcast the face and write")
    #expect((face as AnyObject) as? MutableProperty<Int> == nil)
  }

  @Test func settingDeliversToTheFaceInOrder() {
    let viewModel = CounterViewModel()
    let counts = viewModel.$count.record()
    viewModel.increment()
    viewModel.increment()
    counts.assertValues([0, 1, 2])
    #expect(viewModel.count == 2)
  }

  @Test func aSetDuringADeliveryIsQueuedNotRecursive() {
    let viewModel = CounterViewModel()
    var seen: [Int] = []
    let token = viewModel.$count.observe { value in
      seen.append(value)
      if value == 1 { viewModel.increment() }
    }
    viewModel.increment()
    #expect(seen == [0, 1, 2])
    _ = token
  }

  @Test func mutatingInPlaceDeliversOnceWithoutCopying() {
    let viewModel = CounterViewModel()
    let items = viewModel.$items.record()
    viewModel.add("a")
    viewModel.add("b")
    items.assertValues([[], ["a"], ["a", "b"]])
  }

  @Test func aThrowingInPlaceMutationStillDeliversWhatChanged() {
    let viewModel = CounterViewModel()
    let items = viewModel.$items.record()
    #expect(throws: CounterViewModel.Failure.self) { try viewModel.addThenFail("x") }
    items.assertValues([[], ["x"]])
  }

  @Test func aReadInsideObserveIsTracked() async {
    let viewModel = CounterViewModel()
    var seen: [Int] = []
    let token = observe { seen.append(viewModel.count) }
    viewModel.increment()
    await settleObservations()
    #expect(seen == [0, 1])
    _ = token
  }

  @Test func aReadIsVisibleToObservation() {
    let viewModel = CounterViewModel()
    var changes = 0
    withObservationTracking {
      _ = viewModel.count
    } onChange: {
      MainActor.assumeIsolated { changes += 1 }
    }
    viewModel.increment()
    #expect(changes == 1)
  }

  @Test func theProbeFindsOutputsAndAssertsThemThroughTheirFaces() {
    let viewModel = CounterViewModel()
    let probe = ViewModelProbe(viewModel)
    #expect(probe.outputNames == ["count", "items"])
    viewModel.increment()
    viewModel.add("a")
    probe.expect(\.$count, [1])
    probe.expect(\.$items, [["a"]])
    probe.finish()
  }

  // Lifetimes: a set reaches its property unretained, kept alive by the view model.

  @Test func aViewModelDroppedByItsOwnOutputsObserverEndsTheDeliveryCleanly() {
    var viewModel: CounterViewModel? = CounterViewModel()
    var tokens: [ObservationToken] = []
    var seen: [Int] = []
    tokens.append(
      viewModel!.$count.observe { count in
        // The last references to the view model and to every token on its output go here,
        // in the middle of the delivery the view model's own set started: the observer after
        // this one is cancelled before its turn, and the property is freed after the set.
        if count == 1 {
          viewModel = nil
          tokens.removeAll()
        }
      })
    tokens.append(viewModel!.$count.observe { seen.append($0) })
    weak let released = viewModel
    viewModel?.increment()
    #expect(seen == [0])
    #expect(released == nil)
  }

  @Test func anOutputsPropertyFreedWhileItDeliversStopsTheProgramWithAMessage() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      final class Holder { var token: ObservationToken? }
      // A set holds its property unretained, as `Output`'s setter does; the observer frees it.
      let property = Unmanaged.passRetained(
        OutputProperty<Int>(initial: 0, leavesUnchanged: nil))
      let holder = Holder()
      holder.token = property.takeUnretainedValue().observe { value in
        if value == 1 {
          holder.token = nil
          property.release()
        }
      }
      property._withUnsafeGuaranteedRef { $0.set(1) }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("An @Output was freed while it delivered a value"))
  }

  // Repeats: an Equatable output delivers changes, not sets.

  @Test func anEquatableOutputSetToTheValueItHoldsDeliversNothing() {
    let viewModel = FilterViewModel()
    let queries = viewModel.$query.record()
    viewModel.type("a")
    viewModel.type("a")
    viewModel.type("ab")
    viewModel.type("ab")
    viewModel.type("a")
    queries.assertValues(["", "a", "ab", "a"])
  }

  @Test func anEqualSetReRunsNoObserveAndTellsObservationNothing() async {
    let viewModel = FilterViewModel()
    var seen: [String] = []
    let token = observe { seen.append(viewModel.query) }
    var observationChanges = 0
    withObservationTracking {
      _ = viewModel.query
    } onChange: {
      MainActor.assumeIsolated { observationChanges += 1 }
    }
    viewModel.type("")
    viewModel.type("x")
    await settleObservations()
    // The equal set came first: had it been delivered, Observation's one-shot tracking would
    // have fired on it, and `observe { }` would have run for it too.
    #expect(seen == ["", "x"])
    #expect(observationChanges == 1)
    #expect(viewModel.query == "x")
    _ = token
  }

  @Test func aNonEquatableOutputDeliversEverySet() {
    let viewModel = FilterViewModel()
    let numbers = viewModel.$opaque.map(\.number).record()
    viewModel.setOpaque(1)
    viewModel.setOpaque(1)
    numbers.assertValues([0, 1, 1])
  }

  @Test func aMutationInPlaceIsDeliveredEvenWhenItChangesNothing() {
    let viewModel = FilterViewModel()
    let queries = viewModel.$query.record()
    viewModel.touchQueryInPlace()
    queries.assertValues(["", ""])
  }

  @Test func theProbeSeesNoRepeatOfAnEquatableOutput() {
    let viewModel = FilterViewModel()
    let probe = ViewModelProbe(viewModel)
    viewModel.type("a")
    viewModel.type("a")
    probe.expect(\.$query, ["a"])
    probe.finish()
  }

  // Events: one declaration, sent by the view model alone.

  @Test func anEventDeliversEachSendInOrderToEveryObserver() {
    let viewModel = FilterViewModel()
    let first = viewModel.submitted.record()
    let second = viewModel.submitted.record()
    viewModel.type("tea")
    viewModel.submit()
    viewModel.submit()
    first.assertValues(["tea", "tea"])
    second.assertValues(["tea", "tea"])
    #expect(viewModel.submitted === viewModel.submitted, "one signal, not one per read")
  }

  @Test func aVoidEventSendsWithNoArgumentAndReplaysNothing() {
    let viewModel = FilterViewModel()
    viewModel.clear()
    var count = 0
    let token = viewModel.cleared.observe { count += 1 }
    viewModel.clear()
    #expect(count == 1, "an observer that came after the first clear never sees it")
    _ = token
  }

  @Test func theProbeFindsEventsByTheirName() {
    let viewModel = FilterViewModel()
    let probe = ViewModelProbe(viewModel)
    #expect(probe.outputNames == ["query", "opaque", "submitted", "cleared"])
    viewModel.submit()
    probe.expect(\.submitted, [""])
    probe.finish()
  }
}

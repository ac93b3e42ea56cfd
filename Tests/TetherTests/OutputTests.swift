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
}

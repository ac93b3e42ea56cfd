import Observation
import Testing
import TetherTesting

@testable import Tether

@MainActor
private final class CartViewModel {
  @Output private(set) var items: [String] = []
  @Output private(set) var isBusy = false
  @Derived(\CartViewModel.$items, \.count) var count: Int
  @Derived({ (model: CartViewModel) in
    model.$isBusy.combineLatest(with: model.$items).map { busy, items in
      busy ? "Saving…" : "\(items.count) in the cart"
    }
  })
  var status: String
  /// Not `Equatable`: every source change is delivered.
  @Derived(\CartViewModel.$items, { Box(count: $0.count) }) var box: Box
  private(set) var made = 0
  @Derived({ (model: CartViewModel) in
    model.made += 1
    return model.$items.map(\.isEmpty)
  })
  var isEmpty: Bool

  struct Box {
    let count: Int
  }

  func add(_ item: String) { items.append(item) }
  func rename(_ index: Int, _ name: String) { items[index] = name }
  func setBusy(_ busy: Bool) { isBusy = busy }
}

@MainActor
@Suite struct DerivedTests {
  @Test func aDerivedOutputReadsOtherOutputsInOneDeclaration() {
    let viewModel = CartViewModel()
    #expect(viewModel.count == 0)
    #expect(viewModel.status == "0 in the cart")
    viewModel.add("tea")
    viewModel.setBusy(true)
    #expect(viewModel.count == 1)
    #expect(viewModel.status == "Saving…")
  }

  @Test func itsFaceDeliversChangesOnlyWhenEquatable() {
    let viewModel = CartViewModel()
    let counts = viewModel.$count.record()
    let boxes = viewModel.$box.map(\.count).record()
    viewModel.add("tea")
    viewModel.rename(0, "green tea")  // the items change, their count does not
    viewModel.add("milk")
    counts.assertValues([0, 1, 2])
    boxes.assertValues([0, 1, 1, 2])
  }

  @Test func itIsMadeOnceOnTheFirstReadAndFollowsFromThen() {
    let viewModel = CartViewModel()
    viewModel.add("tea")
    #expect(viewModel.made == 0, "nothing is made before a read")
    #expect(viewModel.isEmpty == false)
    viewModel.add("milk")
    _ = viewModel.$isEmpty
    #expect(viewModel.isEmpty == false)
    #expect(viewModel.made == 1)
  }

  @Test func itsFaceIsAPlainDerivedPropertyNoCastCanWrite() {
    let viewModel = CartViewModel()
    let face: Property<Int> = viewModel.$count
    #expect(!(face is MutableProperty<Int>))
    #expect(viewModel.$count === viewModel.$count, "one property, not one per read")
  }

  @Test func aReadIsTrackedByObserveAndObservation() async {
    let viewModel = CartViewModel()
    var seen: [String] = []
    let token = observe { seen.append(viewModel.status) }
    var observationChanges = 0
    withObservationTracking {
      _ = viewModel.count
    } onChange: {
      MainActor.assumeIsolated { observationChanges += 1 }
    }
    viewModel.add("tea")
    await settleObservations()
    #expect(seen == ["0 in the cart", "1 in the cart"])
    #expect(observationChanges == 1)
    _ = token
  }

  @Test func theProbeMakesDerivedOutputsWhenItStartsAndRecordsTheirChanges() {
    let viewModel = CartViewModel()
    let probe = ViewModelProbe(viewModel)
    #expect(viewModel.made == 1, "the probe made the output it records")
    #expect(probe.outputNames == ["items", "isBusy", "count", "status", "box", "isEmpty"])
    viewModel.add("tea")
    probe.expect(\.$items, [["tea"]])
    probe.expect(\.$count, [1])
    probe.expect(\.$status, ["1 in the cart"])
    probe.skip(\.$box)
    probe.expect(\.$isEmpty, [false])
    probe.finish()
  }
}

import Observation
import Testing

@testable import Tether

/// Stages reach their targets and observers unretained (see `Property.subscriptions`): each
/// test frees something while a delivery is inside it, in one of the ways the lifetime rules of
/// `ObserverList` cover. They pass or fail on what they see; under AddressSanitizer (CI runs
/// these suites with it, and the `delivery` fuzz target runs the same shapes optimized) any
/// touch of freed memory fails.
@MainActor
@Suite struct ReleaseDuringDeliveryTests {

  @Test func aMapWhoseTransformFreesItsOwnStageUpdatesNothingAfterward() {
    let source = MutableProperty(0)
    final class Holder {
      var stage: Property<Int>?
      var token: ObservationToken?
    }
    let holder = Holder()
    var transformed: [Int] = []
    var seen: [Int] = []
    holder.stage = source.map { value in
      transformed.append(value)
      if value == 2 {
        holder.token = nil
        holder.stage = nil
      }
      return value * 10
    }
    holder.token = holder.stage?.observe { seen.append($0) }
    source.value = 1
    source.value = 2
    source.value = 3
    #expect(transformed == [0, 1, 2])
    #expect(seen == [0, 10])
    #expect(holder.stage == nil)
    #expect(source.observerCount == 0)
  }

  @Test func anObserverThatDropsItsOwnTokenFinishesItsCallAndTheOthersStillHear() {
    let source = MutableProperty(0)
    final class Holder { var tokens: [ObservationToken] = [] }
    final class Tally { var calls = 0 }
    let holder = Holder()
    var log: [String] = []
    do {
      // Held by the closure alone, and used after the token holding the closure is gone.
      let tally = Tally()
      holder.tokens.append(
        source.observe { value in
          guard value == 1 else { return }
          holder.tokens.removeFirst()
          tally.calls += 1
          log.append("first \(value), call \(tally.calls)")
        })
    }
    holder.tokens.append(source.observe { log.append("second \($0)") })
    source.value = 1
    source.value = 2
    #expect(log == ["second 0", "first 1, call 1", "second 1", "second 2"])
    #expect(source.observerCount == 1)
  }

  @Test func aStageFreedByItsFirstObserverNeverCallsTheSecond() {
    let source = MutableProperty(0)
    final class Holder {
      var stage: Property<Int>?
      var tokens: [ObservationToken] = []
    }
    let holder = Holder()
    var log: [String] = []
    holder.stage = source.map { $0 + 1 }
    holder.tokens.append(
      holder.stage!.observe { value in
        log.append("first \(value)")
        if value == 2 {
          holder.tokens = []
          holder.stage = nil
        }
      })
    holder.tokens.append(holder.stage!.observe { log.append("second \($0)") })
    source.value = 1
    source.value = 5
    #expect(log == ["first 1", "second 1", "first 2"])
    #expect(source.observerCount == 0)
  }

  @Test func aCombinedChainReleasedByItsOwnObserverFinishesTheDeliveryItIsIn() {
    let first = MutableProperty(0)
    let second = MutableProperty(0)
    final class Holder { var token: ObservationToken? }
    let holder = Holder()
    var seen: [Int] = []
    holder.token = first.combineLatest(with: second).map { $0 + $1 }.observe { value in
      seen.append(value)
      if value > 2 { holder.token = nil }
    }
    first.value = 1
    second.value = 2
    second.value = 4
    #expect(seen == [0, 1, 3])
    #expect(first.observerCount == 0)
    #expect(second.observerCount == 0)
  }

  @Test func aStageFreedByObservationsCallbackInItsSetFinishesItsSet() {
    let source = MutableProperty(0)
    @MainActor final class Holder {
      var stage: Property<Int>?
      var token: ObservationToken?
    }
    let holder = Holder()
    var seen: [Int] = []
    holder.stage = source.map { $0 * 2 }
    holder.token = holder.stage?.observe { seen.append($0) }
    // Observation's `onChange` runs in the stage's `willSet`, before its store and its send.
    withObservationTracking {
      _ = holder.stage?.value
    } onChange: {
      MainActor.assumeIsolated {
        holder.token = nil
        holder.stage = nil
      }
    }
    source.value = 1
    source.value = 2
    // The token went in `willSet`: the observer hears nothing more, and the stage, gone, no
    // more updates.
    #expect(seen == [0])
    #expect(holder.stage == nil)
    #expect(source.observerCount == 0)
  }

  @Test func anObserveBlockCancelledByAnotherObserverDuringADeliveryIsRemovedAfterIt() async {
    let source = MutableProperty(0)
    var runs: [Int] = []
    var dependent: ObservationToken? = observe { runs.append(source.value) }
    let canceller = source.observe { value in
      if value == 1 { dependent = nil }
    }
    source.value = 1
    #expect(source.observerCount == 1)
    source.value = 2
    #expect(runs == [0])
    withExtendedLifetime((canceller, dependent)) {}
  }
}

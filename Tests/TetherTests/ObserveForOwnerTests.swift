import Testing

@testable import Tether

/// A view that owns a lifetime, as the object-bound `observe` expects.
@MainActor
private final class Label: @MainActor LifetimeProvider {
  let lifetime = Lifetime()
  var text = ""
  var runs = 0
}

@MainActor
@Suite struct ObserveForOwnerTests {
  @Test func aTrackingObservationOfAnObjectNeedsNoTokenAndStopsWhenItDeallocates() async {
    let count = MutableProperty(0)
    var runs = 0
    var label: Label? = Label()
    weak let weakLabel = label
    label?.observe { label in
      label.text = "Count: \(count.value)"
      runs += 1
    }
    #expect(label?.text == "Count: 0")
    count.value = 1
    await settleObservations()
    #expect(label?.text == "Count: 1")
    #expect(runs == 2)
    #expect(count.observerCount == 1)
    label = nil
    #expect(weakLabel == nil, "the observation must not keep its object alive")
    #expect(count.observerCount == 0, "the observation ended with its object")
    count.value = 2
    await settleObservations()
    #expect(runs == 2)
  }

  @Test func theZeroArgumentFormIsKeptByTheLifetimeToo() async {
    let count = MutableProperty(0)
    var seen: [Int] = []
    var label: Label? = Label()
    label?.observe { seen.append(count.value) }
    count.value = 1
    await settleObservations()
    #expect(seen == [0, 1])
    label = nil
    count.value = 2
    await settleObservations()
    #expect(seen == [0, 1])
    #expect(count.observerCount == 0)
  }

  @Test func aPropertyObservedForAnObjectDeliversUntilItDeallocates() {
    let title = MutableProperty("a")
    var label: Label? = Label()
    weak let weakLabel = label
    if let label { title.observe(for: label) { label, value in label.text = value } }
    #expect(label?.text == "a")
    title.value = "b"
    #expect(label?.text == "b")
    #expect(title.observerCount == 1)
    label = nil
    #expect(weakLabel == nil)
    #expect(title.observerCount == 0)
    title.value = "c"
  }

  @Test func aSignalObservedForAnObjectDeliversUntilItDeallocates() {
    let pipe = Signal<String>.pipe()
    var label: Label? = Label()
    if let label { pipe.output.observe(for: label) { label, value in label.text += value } }
    pipe.input.send("x")
    pipe.input.send("y")
    #expect(label?.text == "xy")
    label = nil
    #expect(pipe.output.observerCount == 0)
  }

  @Test func theReturnedTokenStillEndsTheObservationEarly() {
    let title = MutableProperty("a")
    let label = Label()
    let token = title.observe(for: label) { label, value in label.text = value }
    token.cancel()
    title.value = "b"
    #expect(label.text == "a")
    #expect(title.observerCount == 0)
  }
}

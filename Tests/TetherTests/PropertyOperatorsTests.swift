import Testing
import TetherTesting

@testable import Tether

@MainActor
@Suite struct PropertyOperatorsTests {
  @Test func mapFollowsChanges() {
    let name = MutableProperty("Ada")
    let greeting = name.map { "Hello, \($0)" }
    let recorder = greeting.record()
    name.value = "Grace"
    #expect(recorder.values == ["Hello, Ada", "Hello, Grace"])
    #expect(greeting.value == "Hello, Grace")
  }

  @Test func mapByKeyPath() {
    let text = MutableProperty("abc")
    let count = text.map(\.count)
    text.value = "abcdef"
    #expect(count.value == 6)
  }

  @Test func chainedDerivedPropertiesKeepTheirSourcesAlive() {
    let root = MutableProperty(1)
    // The intermediate property is referenced by nothing but the final one.
    let final = root.map { $0 + 1 }.map { $0 * 10 }
    root.value = 4
    #expect(final.value == 50)
  }

  @Test func droppingADerivedPropertyRemovesItsObserver() {
    let root = MutableProperty(1)
    weak var weakDerived: Property<Int>?
    do {
      let derived = root.map { $0 * 2 }
      weakDerived = derived
      #expect(root.observerCount == 1)
    }
    #expect(weakDerived == nil)
    #expect(root.observerCount == 0)
  }

  @Test func skipRepeatsDeliversOnlyDistinctValues() {
    let source = MutableProperty(1)
    let recorder = source.skipRepeats().record()
    for value in [1, 2, 2, 3, 3, 3, 1] { source.value = value }
    #expect(recorder.values == [1, 2, 3, 1])
  }

  @Test func skipRepeatsByCustomEquivalence() {
    let source = MutableProperty("a")
    let recorder = source.skipRepeats { $0.lowercased() == $1.lowercased() }.record()
    for value in ["A", "b", "B", "c"] { source.value = value }
    #expect(recorder.values == ["a", "b", "c"])
  }

  @Test func combineLatestUpdatesOnEitherSide() {
    let email = MutableProperty("")
    let password = MutableProperty("")
    let canSubmit = email.combineLatest(with: password).map { !$0.isEmpty && $1.count >= 8 }
    let recorder = canSubmit.record()
    email.value = "a@b.c"
    password.value = "12345678"
    email.value = ""
    #expect(recorder.values == [false, false, true, false])
  }

  @Test func combineLatestOfThree() {
    let a = MutableProperty(1)
    let b = MutableProperty("x")
    let c = MutableProperty(true)
    let combined = Property<(Int, String, Bool)>.combineLatest(a, b, c)
    b.value = "y"
    c.value = false
    #expect(combined.value == (1, "y", false))
  }

  @Test func combineLatestSourcesDoNotRetainEachOther() {
    weak var weakA: MutableProperty<Int>?
    weak var weakB: MutableProperty<Int>?
    do {
      let a = MutableProperty(1)
      let b = MutableProperty(2)
      weakA = a
      weakB = b
      let sum = a.combineLatest(with: b).map { $0 + $1 }
      a.value = 10
      #expect(sum.value == 12)
    }
    #expect(weakA == nil)
    #expect(weakB == nil)
  }

  @Test func flatMapLatestDropsStaleInnerValues() {
    let first = MutableProperty("first:0")
    let second = MutableProperty("second:0")
    let selection = MutableProperty(0)
    let detail = selection.flatMapLatest { $0 == 0 ? first : second }
    let recorder = detail.record()

    first.value = "first:1"
    selection.value = 1
    first.value = "first:stale"  // the old inner no longer feeds the output
    second.value = "second:1"

    #expect(recorder.values == ["first:0", "first:1", "second:0", "second:1"])
    #expect(first.observerCount == 0)
  }

  /// Derived properties are reached `unowned(unsafe)` from their sources' observer lists: dropping
  /// the last reference from inside a delivery of the source must not leave a dangling entry,
  /// whichever observer runs first (AddressSanitizer checks this in CI's sanitizer runs).
  @Test func derivedPropertyDroppedDuringItsSourcesDeliveryIsNeverCalledAgain() {
    for derivedFirst in [true, false] {
      let source = MutableProperty(0)
      var derived: Property<Int>?
      var received: [Int] = []
      var killer: ObservationToken?
      if derivedFirst { derived = source.map { $0 * 2 } }
      killer = source.observe { value in if value == 1 { derived = nil } }
      if !derivedFirst { derived = source.map { $0 * 2 } }
      weak let weakDerived = derived
      let token = derived?.observe { received.append($0) }
      token?.cancel()
      source.value = 1
      source.value = 2
      #expect(derived == nil)
      #expect(weakDerived == nil)
      #expect(source.observerCount == 1)
      #expect(received == [0])
      _ = killer
    }
  }

  @Test func changesSkipsTheCurrentValue() {
    let property = MutableProperty(1)
    let recorder = property.changes.record()
    property.value = 2
    #expect(recorder.values == [2])
  }
}

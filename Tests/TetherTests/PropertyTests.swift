import Testing
import TetherTesting

@testable import Tether

@MainActor
@Suite struct PropertyTests {
  @Test func observeReplaysCurrentValueThenChanges() {
    let property = MutableProperty(1)
    var received: [Int] = []
    let token = property.observe { received.append($0) }
    #expect(received == [1])
    property.value = 2
    property.value = 3
    #expect(received == [1, 2, 3])
    _ = token
  }

  @Test func everySetIsDeliveredEvenIfEqual() {
    let property = MutableProperty("a")
    var received: [String] = []
    let token = property.observe { received.append($0) }
    property.value = "a"
    #expect(received == ["a", "a"])
    _ = token
  }

  @Test func aMutationInPlaceIsOneDeliveredWrite() {
    let items = MutableProperty([1, 2])
    var received: [[Int]] = []
    let token = items.observe { received.append($0) }
    items.value.append(3)
    items.value[0] += 10
    #expect(received == [[1, 2], [1, 2, 3], [11, 2, 3]])
    _ = token
  }

  /// `count.value += 1` writes; it does not read. A read outside `observe { }` registers the
  /// property with Observation (making its registrar), and the set after it then pays the
  /// registrar's willSet and didSet.
  @Test func aMutationInPlaceIsNoRead() {
    let count = MutableProperty(0)
    count.value += 1
    #expect(count.observationLink == nil, "no read registered it with Observation")
    var runs = 0
    let bump = observe {
      runs += 1
      count.value += 1
    }
    #expect(runs == 1)
    #expect(count.value == 2)
    count.value = 10
    flushObservations()
    #expect(runs == 1, "the run only wrote the property: it does not depend on it")
    _ = bump
  }

  @Test func constantPropertyReplaysAndNeverChanges() {
    let property = Property(value: 42)
    var received: [Int] = []
    let token = property.observe { received.append($0) }
    #expect(received == [42])
    #expect(property.value == 42)
    _ = token
  }

  @Test func tokenCancelsOnDeinit() {
    let property = MutableProperty(0)
    var received: [Int] = []
    do {
      let token = property.observe { received.append($0) }
      property.value = 1
      #expect(property.observerCount == 1)
      _ = token
    }
    #expect(property.observerCount == 0)
    property.value = 2
    #expect(received == [0, 1])
  }

  @Test func explicitCancelStopsDeliveryAndIsIdempotent() {
    let property = MutableProperty(0)
    var received: [Int] = []
    let token = property.observe { received.append($0) }
    token.cancel()
    token.cancel()
    #expect(token.isCancelled)
    property.value = 1
    #expect(received == [0])
  }

  @Test func tokenKeepsTheObservedPropertyAliveUntilCancelled() {
    weak var weakProperty: Property<Int>?
    var received: [Int] = []
    let source = MutableProperty(1)
    // A temporary derived property lives as long as the observation of it.
    let token = source.map { $0 * 10 }.observe { received.append($0) }
    weakProperty = source
    source.value = 2
    #expect(received == [10, 20])
    token.cancel()
    #expect(source.observerCount == 0)
    _ = weakProperty
  }

  @Test func cancelledTokenReleasesTheObservedProperty() {
    weak var weakProperty: MutableProperty<Int>?
    let token: ObservationToken
    do {
      let property = MutableProperty(0)
      weakProperty = property
      token = property.observe { _ in }
    }
    #expect(weakProperty != nil)
    token.cancel()
    #expect(weakProperty == nil)
  }

  @Test func cancellingAnyObserverKeepsTheOthersInOrder() {
    let property = MutableProperty(0)
    var received: [String] = []
    let tokens = (0..<5).map { index in
      property.observe { received.append("\(index):\($0)") }
    }
    received.removeAll()
    tokens[1].cancel()
    tokens[3].cancel()
    property.value = 7
    #expect(received == ["0:7", "2:7", "4:7"])
    tokens[4].cancel()
    tokens[0].cancel()
    received.removeAll()
    property.value = 8
    #expect(received == ["2:8"])
    #expect(property.observerCount == 1)
  }

  @Test func reentrantSetsAreDeliveredInOrderWithoutRecursion() {
    let property = MutableProperty(0)
    var first: [Int] = []
    var second: [Int] = []
    var depth = 0
    var maxDepth = 0
    let a = property.observe { value in
      depth += 1
      maxDepth = max(maxDepth, depth)
      first.append(value)
      // Counting up from inside the observer: 1_000 re-entrant sets must neither recurse
      // 1_000 deep nor lose a value.
      if value > 0 && value < 1_000 { property.value = value + 1 }
      depth -= 1
    }
    let b = property.observe { second.append($0) }
    property.value = 1
    #expect(first == Array(0...1_000))
    #expect(second == Array(0...1_000))
    #expect(maxDepth == 1)
    #expect(property.value == 1_000)
    _ = (a, b)
  }

  @Test func everyObserverSeesAValueBeforeTheNextOne() {
    let property = MutableProperty(0)
    var log: [String] = []
    let a = property.observe { value in
      log.append("a\(value)")
      if value == 1 { property.value = 2 }
    }
    let b = property.observe { log.append("b\($0)") }
    log.removeAll()
    property.value = 1
    #expect(log == ["a1", "b1", "a2", "b2"])
    _ = (a, b)
  }

  @Test func observerCancelledDuringDeliveryReceivesNothingMore() {
    let property = MutableProperty(0)
    var received: [Int] = []
    var victim: ObservationToken?
    let killer = property.observe { value in
      if value == 1 { victim?.cancel() }
    }
    victim = property.observe { received.append($0) }
    property.value = 1
    property.value = 2
    #expect(received == [0])
    _ = killer
  }

  @Test func observerAddedDuringDeliveryStartsWithCurrentValue() {
    let property = MutableProperty(0)
    var late: [Int] = []
    var lateToken: ObservationToken?
    let token = property.observe { value in
      if value == 1 && lateToken == nil {
        lateToken = property.observe { late.append($0) }
      }
    }
    property.value = 1
    property.value = 2
    #expect(late == [1, 2])
    _ = token
  }

  @Test func setDuringReplayIsQueuedAfterIt() {
    let property = MutableProperty(0)
    var received: [Int] = []
    let token = property.observe { value in
      received.append(value)
      if value == 0 { property.value = 5 }
    }
    #expect(received == [0, 5])
    _ = token
  }

  @Test func whatAThrowingModifyChangedStaysAndIsDelivered() {
    struct Refused: Error {}
    let items = MutableProperty([1])
    var received: [[Int]] = []
    let token = items.observe { received.append($0) }
    #expect(throws: Refused.self) {
      try items.modify { value in
        value.append(2)
        throw Refused()
      }
    }
    #expect(items.value == [1, 2])
    #expect(received == [[1], [1, 2]])
    items.value = [3]
    #expect(received == [[1], [1, 2], [3]], "the property is usable after the throw")
    _ = token
  }

  @Test func modifyMutatesInPlaceAndDeliversOnce() {
    let property = MutableProperty([1, 2, 3])
    var received: [[Int]] = []
    let token = property.observe { received.append($0) }
    let removed = property.modify { $0.removeFirst() }
    #expect(removed == 1)
    #expect(received == [[1, 2, 3], [2, 3]])
    _ = token
  }

  @Test func readOnlyWrapperFollowsAndKeepsSourceAlive() {
    weak var weakSource: MutableProperty<Int>?
    let readOnly: Property<Int>
    do {
      let source = MutableProperty(1)
      weakSource = source
      readOnly = Property(source)
      source.value = 2
    }
    #expect(readOnly.value == 2)
    #expect(weakSource != nil)
    weakSource?.value = 3
    #expect(readOnly.value == 3)
  }

  @Test func manyObserversSubscribeAndCancelInAnyOrder() {
    let property = MutableProperty(0)
    var generator = SeededRandomNumberGenerator(seed: 7)
    var tokens: [ObservationToken] = []
    var count = 0
    for _ in 0..<2_000 {
      if tokens.isEmpty || generator.next() % 3 != 0 {
        tokens.append(property.observe { _ in count += 1 })
      } else {
        let index = Int(generator.next() % UInt64(tokens.count))
        tokens.remove(at: index).cancel()
      }
      #expect(property.observerCount == tokens.count)
    }
    count = 0
    property.value = 1
    #expect(count == tokens.count)
  }
}

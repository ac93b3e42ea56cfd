import Testing
import TetherTesting

@testable import Tether

/// The operators a reactive user reaches for beside `map`, `filter` and `combineLatest`: each
/// with the delivery rules the others have (in order, synchronous, nothing from the past).
@MainActor
@Suite struct SequencingOperatorsTests {
  @Test func scanSendsTheRunningResult() {
    let (signal, input) = Signal<Int>.pipe()
    let sums = signal.scan(0, +).record()
    let log = signal.scan([String]()) { $0 + ["\($1)"] }.record()
    for value in [1, 2, 3] { input.send(value) }
    #expect(sums.values == [1, 3, 6])
    #expect(log.values.last == ["1", "2", "3"])
  }

  /// Rx's `startWith` on a shared signal: each observer gets the values as it starts, then only
  /// events sent after it started.
  @Test func prependGivesEachObserverItsValuesFirstThenTheEvents() {
    let (signal, input) = Signal<Int>.pipe()
    let started = signal.prepend(0, 1)
    let early = started.record()
    input.send(2)
    let late = started.record()
    input.send(3)
    #expect(early.values == [0, 1, 2, 3])
    #expect(late.values == [0, 1, 3])
  }

  @Test func aLaterPrependGoesBeforeAnEarlierOnesValues() {
    let (signal, input) = Signal<Int>.pipe()
    let recorder = signal.prepend(2).prepend(1).record()
    input.send(3)
    #expect(recorder.values == [1, 2, 3])
  }

  @Test func mapFilterCompactMapAndMergePassAPrependedSignalsValuesOn() {
    let (signal, input) = Signal<Int>.pipe()
    let (other, otherInput) = Signal<Int>.pipe()
    let started = signal.prepend(1, 2, 3)
    let mapped = started.map { $0 * 10 }.record()
    let even = started.filter { $0.isMultiple(of: 2) }.record()
    let odd = started.compactMap { $0.isMultiple(of: 2) ? nil : "\($0)" }.record()
    let merged = started.merge(with: other.prepend(7)).record()
    let held = started.hold(initial: 0)
    #expect(mapped.values == [10, 20, 30])
    #expect(even.values == [2])
    #expect(odd.values == ["1", "3"])
    #expect(merged.values == [1, 2, 3, 7])
    #expect(held.value == 3)
    input.send(4)
    otherInput.send(5)
    #expect(mapped.values == [10, 20, 30, 40])
    #expect(even.values == [2, 4])
    #expect(merged.values == [1, 2, 3, 7, 4, 5])
    #expect(held.value == 4)
  }

  @Test func aPropertysPrependGivesItsValuesThenTheValueAtThatMomentThenChanges() {
    let property = MutableProperty("b")
    let started = property.prepend("a")
    let first = started.record()
    property.value = "c"
    let second = started.record()
    property.value = "d"
    #expect(first.values == ["a", "b", "c", "d"])
    #expect(second.values == ["a", "c", "d"])
  }

  /// The delivery rules: an event sent by an observer during the prefix is delivered after the
  /// whole prefix, in order, and to the observers there were when it was sent.
  @Test func prependFollowsTheDeliveryRules() {
    let (signal, input) = Signal<Int>.pipe()
    let started = signal.prepend(1, 2, 3)
    let earlier = started.record()
    var order: [Int] = []
    let reentrant = started.observe { value in
      order.append(value)
      if value == 1 { input.send(10) }
    }
    #expect(order == [1, 2, 3, 10])
    #expect(earlier.values == [1, 2, 3, 10])
    reentrant.cancel()
    input.send(4)
    #expect(order == [1, 2, 3, 10])
  }

  @Test func aPrependedSignalKeepsItsSourceAndLetsItGoWithItsLastObserver() {
    let (signal, input) = Signal<Int>.pipe()
    weak var started: Signal<Int>?
    var recorder: Recorder<Int>? = {
      let made = signal.prepend(0)
      started = made
      return made.record()
    }()
    input.send(1)
    #expect(recorder?.values == [0, 1])
    #expect(started != nil)
    recorder = nil
    #expect(started == nil)
    #expect(signal.observerCount == 0)
  }

  @Test func takeFirstAndSkipFirstSplitTheEvents() {
    let (signal, input) = Signal<Int>.pipe()
    let first = signal.take(first: 2).record()
    let rest = signal.skip(first: 2).record()
    let none = signal.take(first: -1).record()
    let all = signal.skip(first: 0).record()
    for value in 1...5 { input.send(value) }
    #expect(first.values == [1, 2])
    #expect(rest.values == [3, 4, 5])
    #expect(none.values.isEmpty)
    #expect(all.values == [1, 2, 3, 4, 5])
  }

  @Test func takeUntilEndsAtTheTriggersFirstEvent() {
    let (signal, input) = Signal<Int>.pipe()
    let (stop, stopInput) = Signal<Void>.pipe()
    let taken = signal.take(until: stop).record()
    input.send(1)
    input.send(2)
    stopInput.send()
    input.send(3)
    stopInput.send()
    input.send(4)
    #expect(taken.values == [1, 2])
  }

  /// RxSwift's and ReactiveSwift's specs: a finished `take` lets go of what it observed.
  @Test func takeFirstLetsItsSourceGoOnceItHasTakenItsCount() {
    let (signal, input) = Signal<Int>.pipe()
    weak var middle: Signal<Int>?
    let taken: Signal<Int> = {
      let mapped = signal.map { $0 * 10 }
      middle = mapped
      return mapped.take(first: 2)
    }()
    let recorder = taken.record()
    input.send(1)
    #expect(middle != nil, "kept while it has events to take")
    input.send(2)
    #expect(recorder.values == [10, 20])
    #expect(middle == nil, "let go once it has taken its count")
    #expect(signal.observerCount == 0)
    input.send(3)
    #expect(recorder.values == [10, 20])
    _ = signal.take(first: 0)
    #expect(signal.observerCount == 0, "a count of 0 never observes")
  }

  @Test func takeUntilLetsItsSourceAndTriggerGoWhenTheTriggerFires() {
    let (signal, input) = Signal<Int>.pipe()
    let (stop, stopInput) = Signal<Int>.pipe()
    weak var middle: Signal<Int>?
    weak var trigger: Signal<Int>?
    let taken: Signal<Int> = {
      let mapped = signal.map { $0 }
      let firstStop = stop.filter { $0 > 0 }
      middle = mapped
      trigger = firstStop
      return mapped.take(until: firstStop)
    }()
    let recorder = taken.record()
    input.send(1)
    stopInput.send(0)
    #expect(middle != nil && trigger != nil, "both kept until the trigger fires")
    stopInput.send(1)
    #expect(middle == nil && trigger == nil, "both let go once it has fired")
    #expect(signal.observerCount == 0 && stop.observerCount == 0)
    input.send(2)
    #expect(recorder.values == [1])
  }

  @Test func anEventSentWhileTheTriggerIsDeliveredIsDropped() {
    let (signal, input) = Signal<Int>.pipe()
    let (stop, stopInput) = Signal<Void>.pipe()
    let recorder = signal.take(until: stop).record()
    let token = stop.observe { input.send(99) }
    stopInput.send()
    #expect(recorder.values.isEmpty)
    withExtendedLifetime(token) {}
  }

  @Test func withLatestFromAndSampleReadThePropertyAtEachEvent() {
    let (taps, tap) = Signal<Void>.pipe()
    let text = MutableProperty("a")
    let submitted = taps.withLatestFrom(text).map { $1 }.record()
    let sampled = text.sample(on: taps).record()
    text.value = "b"
    text.value = "c"
    #expect(submitted.values.isEmpty, "the property's changes alone send nothing")
    tap.send()
    text.value = "d"
    tap.send()
    tap.send()
    #expect(submitted.values == ["c", "d", "d"])
    #expect(sampled.values == ["c", "d", "d"])
  }

  @Test func zipPairsEventsInOrderAndHoldsTheSideAhead() {
    let (left, leftInput) = Signal<Int>.pipe()
    let (right, rightInput) = Signal<String>.pipe()
    let pairs = left.zip(with: right).map { "\($0)\($1)" }.record()
    leftInput.send(1)
    leftInput.send(2)
    leftInput.send(3)
    #expect(pairs.values.isEmpty)
    rightInput.send("a")
    #expect(pairs.values == ["1a"])
    rightInput.send("b")
    rightInput.send("c")
    rightInput.send("d")
    #expect(pairs.values == ["1a", "2b", "3c"])
    for value in 4...60 { leftInput.send(value) }
    #expect(pairs.values.count == 4 && pairs.values.last == "4d")
    for _ in 5...60 { rightInput.send("z") }
    #expect(pairs.values.count == 60 && pairs.values.last == "60z", "the queues drain in order")
  }

  @Test func logicalOperatorsFollowTheirSourcesAndSendOnlyChanges() {
    let isValid = MutableProperty(false)
    let isSaving = MutableProperty(false)
    let canSubmit = isValid && !isSaving
    let either = isValid || isSaving
    let submits = canSubmit.record()
    let eithers = either.record()
    isValid.value = true
    isSaving.value = true
    isSaving.value = false
    isValid.value = false
    isSaving.value = true
    #expect(submits.values == [false, true, false, true, false])
    #expect(
      eithers.values == [false, true, false, true], "a change of one side alone sends nothing")
    #expect(canSubmit.value == false && either.value == true)
  }

  @Test func combineLatestOverAnArrayHoldsEverySourceInOrder() {
    let fields = (0..<5).map { MutableProperty($0.isMultiple(of: 2)) }
    let all = Property.combineLatest(fields.map { Property($0) })
    let valid = all.map { $0.allSatisfy { $0 } }.record()
    #expect(all.value == [true, false, true, false, true])
    fields[1].value = true
    fields[3].value = true
    #expect(all.value == [true, true, true, true, true])
    #expect(valid.values == [false, false, true])
    let none = Property<[Int]>.combineLatest([Property<Int>]())
    #expect(none.value.isEmpty)
  }

  @Test func theNewOperatorsKeepTheirSourcesAndReleaseWithTheirLastObserver() {
    weak var weakSource: Signal<Int>?
    var token: ObservationToken?
    var received: [Int] = []
    do {
      let (signal, input) = Signal<Int>.pipe()
      weakSource = signal
      // A `take` that has not taken its count yet: a finished one lets its source go
      // (`takeFirstLetsItsSourceGoOnceItHasTakenItsCount`).
      token = signal.scan(0, +).take(first: 10).skip(first: 1).observe { received.append($0) }
      for value in 1...5 { input.send(value) }
    }
    #expect(received == [3, 6, 10, 15])
    #expect(weakSource != nil && token != nil, "the observer's token keeps the chain")
    token = nil
    #expect(weakSource == nil, "the chain is freed with its observer's token")
  }
}

@MainActor
@Suite struct DebugOperatorTests {
  @Test func debugWritesEachEventWithItsLabelAndPassesItOn() {
    var lines: [String] = []
    let (signal, input) = Signal<Int>.pipe()
    let passed = signal.debug("taps") { lines.append($0) }.map { $0 * 2 }.record()
    input.send(1)
    input.send(2)
    #expect(lines == ["taps: 1", "taps: 2"])
    #expect(passed.values == [2, 4])

    let name = MutableProperty("a")
    let followed = name.debug("name") { lines.append($0) }.record()
    name.value = "b"
    #expect(lines.suffix(2) == ["name: = a", "name: → b"])
    #expect(followed.values == ["a", "b"])
  }
}

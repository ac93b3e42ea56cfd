import Testing
import TetherTesting

@testable import Tether

@MainActor
@Suite struct SignalTests {
  @Test func signalDoesNotReplayPastEvents() {
    let (signal, input) = Signal<String>.pipe()
    input.send("before")
    var received: [String] = []
    let token = signal.observe { received.append($0) }
    #expect(received.isEmpty)
    input.send("after")
    #expect(received == ["after"])
    _ = token
  }

  @Test func voidEmitterSends() {
    let (signal, input) = Signal<Void>.pipe()
    var count = 0
    let token = signal.observe { count += 1 }
    input.send()
    input.send()
    #expect(count == 2)
    _ = token
  }

  @Test func reentrantSendsAreQueuedInOrder() {
    let (signal, input) = Signal<Int>.pipe()
    var log: [String] = []
    let a = signal.observe { value in
      log.append("a\(value)")
      if value == 1 { input.send(2) }
    }
    let b = signal.observe { log.append("b\($0)") }
    input.send(1)
    #expect(log == ["a1", "b1", "a2", "b2"])
    _ = (a, b)
  }

  @Test func mapFilterCompactMap() {
    let (signal, input) = Signal<Int>.pipe()
    let mapped = signal.map { $0 * 10 }.record()
    let even = signal.filter { $0.isMultiple(of: 2) }.record()
    let parsed = signal.map { String($0) }.compactMap { Int($0 + "0") }.record()
    for value in 1...4 { input.send(value) }
    #expect(mapped.values == [10, 20, 30, 40])
    #expect(even.values == [2, 4])
    #expect(parsed.values == [10, 20, 30, 40])
  }

  @Test func skipRepeatsDropsConsecutiveDuplicates() {
    let (signal, input) = Signal<Int>.pipe()
    let distinct = signal.skipRepeats().record()
    for value in [1, 1, 2, 2, 1, 3, 3] { input.send(value) }
    #expect(distinct.values == [1, 2, 1, 3])
  }

  @Test func mergeInterleavesSources() {
    let (a, inputA) = Signal<String>.pipe()
    let (b, inputB) = Signal<String>.pipe()
    let merged = a.merge(with: b).record()
    inputA.send("a1")
    inputB.send("b1")
    inputA.send("a2")
    #expect(merged.values == ["a1", "b1", "a2"])
  }

  @Test func flatMapLatestFollowsOnlyTheLatestInner() {
    let (outer, outerInput) = Signal<Int>.pipe()
    let inners = [Signal<String>.pipe(), Signal<String>.pipe()]
    let flattened = outer.flatMapLatest { inners[$0].output }.record()
    outerInput.send(0)
    inners[0].input.send("0a")
    outerInput.send(1)
    inners[0].input.send("stale")
    inners[1].input.send("1a")
    #expect(flattened.values == ["0a", "1a"])
  }

  @Test func holdTurnsEventsIntoState() {
    let (signal, input) = Signal<Int>.pipe()
    let held = signal.hold(initial: 0)
    let recorder = held.record()
    input.send(5)
    #expect(held.value == 5)
    #expect(recorder.values == [0, 5])
  }

  @Test func derivedSignalReleasesItsSubscriptionWhenDropped() {
    let (signal, input) = Signal<Int>.pipe()
    do {
      let mapped = signal.map { $0 + 1 }
      #expect(signal.observerCount == 1)
      _ = mapped
    }
    #expect(signal.observerCount == 0)
    input.send(1)
  }
}

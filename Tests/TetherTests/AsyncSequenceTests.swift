import Testing
import TetherTesting

@testable import Tether

@MainActor
@Suite struct AsyncSequenceTests {
  @Test func propertyTakesElementsOfAnAsyncSequence() async {
    let (stream, continuation) = AsyncStream<String>.makeStream()
    let status = Property(initial: "Connecting", then: stream)
    let recorder = status.record()
    continuation.yield("Online")
    continuation.yield("Offline")
    continuation.finish()
    for await value in status.values where value == "Offline" { break }
    #expect(recorder.values == ["Connecting", "Online", "Offline"])
  }

  @Test func aThrowingSequenceIsReportedOnceAndTheLastValueStays() async {
    struct Failure: Error, Equatable { let code: Int }
    let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
    var failures: [Failure] = []
    let property = Property(initial: 0, then: stream) { error in
      failures.append(error as? Failure ?? Failure(code: -1))
    }
    let recorder = property.record()
    continuation.yield(1)
    continuation.finish(throwing: Failure(code: 7))
    await expectEventually { !failures.isEmpty }
    for _ in 0..<5 { await Task.yield() }
    #expect(failures == [Failure(code: 7)])
    #expect(recorder.values == [0, 1])
    #expect(property.value == 1)
  }

  @Test func aTypedFailureArrivesWithItsType() async {
    enum FeedError: Error, Equatable { case closed }
    struct Feed: AsyncSequence, AsyncIteratorProtocol {
      var remaining = [1, 2]
      mutating func next() async throws(FeedError) -> Int? {
        guard !remaining.isEmpty else { throw .closed }
        return remaining.removeFirst()
      }
      mutating func next(isolation actor: isolated (any Actor)?) async throws(FeedError) -> Int? {
        try await next()
      }
      func makeAsyncIterator() -> Feed { self }
    }
    var failures: [FeedError] = []
    let property = Property(initial: 0, then: Feed()) { (error: FeedError) in
      failures.append(error)
    }
    await expectEventually { failures == [.closed] }
    #expect(property.value == 2)
  }

  @Test func valuesStartWithTheCurrentValueThenChanges() async {
    let property = MutableProperty(1)
    var iterator = property.values.makeAsyncIterator()
    property.value = 2
    property.value = 3
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 2)
    #expect(await iterator.next() == 3)
  }

  @Test func valuesFinishWhenThePropertyIsDeallocated() async {
    var property: MutableProperty<Int>? = MutableProperty(1)
    let stream = property?.values
    property?.value = 2
    property = nil
    var collected: [Int] = []
    if let stream {
      for await value in stream { collected.append(value) }
    }
    #expect(collected == [1, 2])
  }

  @Test func abandonedStreamUnsubscribesAtTheNextChange() async {
    let property = MutableProperty(1)
    do {
      let stream = property.values
      _ = stream
    }
    #expect(property.observerCount == 1)
    property.value = 2
    #expect(property.observerCount == 0)
  }

  @Test func signalValuesCarryEvents() async {
    let (signal, input) = Signal<String>.pipe()
    var iterator = signal.values.makeAsyncIterator()
    input.send("tap")
    #expect(await iterator.next() == "tap")
  }

  @Test func droppingThePropertyStopsIteratingTheSequence() async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    weak var weakProperty: Property<Int>?
    do {
      let property = Property(initial: 0, then: stream)
      weakProperty = property
    }
    #expect(weakProperty == nil)
    continuation.yield(1)
    for _ in 0..<5 { await Task.yield() }
    continuation.finish()
  }
}

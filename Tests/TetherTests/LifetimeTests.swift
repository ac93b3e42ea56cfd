import Testing

@testable import Tether

@MainActor
@Suite struct LifetimeTests {
  @Test func endingCancelsEveryStoredToken() {
    let property = MutableProperty(0)
    let lifetime = Lifetime()
    var received: [Int] = []
    property.observe { received.append($0) }.store(in: lifetime)
    property.observe { received.append($0 * 10) }.store(in: lifetime)
    #expect(lifetime.activeCount == 2)
    lifetime.end()
    property.value = 1
    #expect(received == [0, 0])
    #expect(property.observerCount == 0)
    #expect(lifetime.hasEnded)
  }

  @Test func deinitEndsTheLifetime() {
    let property = MutableProperty(0)
    var endedCount = 0
    do {
      let lifetime = Lifetime()
      property.observe { _ in }.store(in: lifetime)
      lifetime.observeEnded { endedCount += 1 }
    }
    #expect(endedCount == 1)
    #expect(property.observerCount == 0)
  }

  @Test func tokenAddedToAnEndedLifetimeIsCancelledAtOnce() {
    let property = MutableProperty(0)
    let lifetime = Lifetime()
    lifetime.end()
    let token = property.observe { _ in }
    token.store(in: lifetime)
    #expect(token.isCancelled)
    var ran = false
    lifetime.observeEnded { ran = true }
    #expect(ran)
  }

  @Test func repeatedRebindingDoesNotGrowTheBag() {
    let property = MutableProperty(0)
    let lifetime = Lifetime()
    var token: ObservationToken?
    for _ in 0..<1_000 {
      token?.cancel()
      let next = property.observe { _ in }
      next.store(in: lifetime)
      token = next
    }
    #expect(lifetime.activeCount == 1)
    #expect(property.observerCount == 1)
  }

  @Test func tokensStoreInASet() {
    let property = MutableProperty(0)
    var tokens = Set<ObservationToken>()
    property.observe { _ in }.store(in: &tokens)
    property.observe { _ in }.store(in: &tokens)
    #expect(tokens.count == 2)
    tokens.removeAll()
    #expect(property.observerCount == 0)
  }

  @Test func onCancelRunsOnce() {
    var runs = 0
    do {
      let token = ObservationToken.onCancel { runs += 1 }
      token.cancel()
      token.cancel()
    }
    #expect(runs == 1)
    do {
      _ = ObservationToken.onCancel { runs += 1 }
    }
    #expect(runs == 2)
  }
}

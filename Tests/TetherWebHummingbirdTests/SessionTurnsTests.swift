#if WebServer
  import Testing

  @testable import TetherWebHummingbird

  /// Finding 4 of the third attack run: one tab's own heavy gestures held the main actor every
  /// session shares. An address's share of it is now bounded by time, not message count.
  @MainActor
  @Suite struct SessionTurnsTests {
    @Test func anAddressPastItsBurstWaitsForItsShareAndNoOtherAddressDoes() {
      let turns = SessionTurns(burst: .milliseconds(200), share: 0.25)
      let now = ContinuousClock.now
      #expect(turns.wait(for: "10.0.0.1", now: now) == .zero)
      // Six filter switches of 50 ms each: 300 ms against a burst of 200.
      for _ in 0..<6 { turns.spend(.milliseconds(50), by: "10.0.0.1", now: now) }
      // 100 ms over, paid back at a quarter of each second: 400 ms.
      #expect(turns.wait(for: "10.0.0.1", now: now) == .milliseconds(400))
      #expect(turns.wait(for: "10.0.0.1", now: now + .milliseconds(200)) == .milliseconds(200))
      #expect(turns.wait(for: "10.0.0.1", now: now + .milliseconds(400)) == .zero)
      #expect(turns.wait(for: "10.0.0.2", now: now) == .zero, "another address is not held")
      #expect(turns.wait(for: nil, now: now) == .zero)
    }

    @Test func eightTabsOfOneAddressShareOneAllowance() {
      let turns = SessionTurns(burst: .milliseconds(200), share: 0.25)
      let now = ContinuousClock.now
      for _ in 0..<8 { turns.spend(.milliseconds(50), by: "10.0.0.9", now: now) }
      #expect(turns.wait(for: "10.0.0.9", now: now) == .milliseconds(800))
    }

    @Test func theAllowanceNeverGrowsPastItsBurst() {
      let turns = SessionTurns(burst: .milliseconds(200), share: 0.25)
      let now = ContinuousClock.now
      turns.spend(.milliseconds(10), by: "10.0.0.1", now: now)
      let later = now + .seconds(3_600)
      turns.spend(.milliseconds(250), by: "10.0.0.1", now: later)
      #expect(turns.wait(for: "10.0.0.1", now: later) == .milliseconds(200))
    }
  }
#endif

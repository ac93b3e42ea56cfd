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

    /// Eight addresses within their shares still asked for twice the main actor, and another
    /// visitor's page load waited behind all their messages. Only one message is on the floor;
    /// the next turn goes to the waiting address that has used the main actor least lately —
    /// not the one with the most allowance: tabs within their shares have all of theirs, as
    /// the visitor has.
    @Test func aClickWaitsForTheMessageOnTheFloorNotForTheQueueBehindIt() async {
      let turns = SessionTurns(burst: .milliseconds(200), share: 0.25, floorLimit: .seconds(60))
      let heavy = ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"]
      // Two seconds ago: each has its whole allowance back, and has been busy lately.
      for address in heavy { turns.spend(.milliseconds(150), by: address, now: .now - .seconds(2)) }
      #expect(heavy.allSatisfy { turns.wait(for: $0) == .zero })
      let first = await turns.turn(for: heavy[0])
      var order: [String] = []
      var tasks: [Task<Void, Never>] = []
      for address in heavy.dropFirst() + ["10.0.0.77"] {
        tasks.append(
          Task { @MainActor in
            let turn = await turns.turn(for: address)
            order.append(address)
            turns.end(turn)
          })
        // Queued in this order: each waits for the floor before the next is started.
        while turns.waitingCount < tasks.count { await Task.yield() }
      }
      turns.end(first)
      for task in tasks { await task.value }
      #expect(order.first == "10.0.0.77", "the visitor, idle lately, goes first")
      #expect(order.dropFirst() == ["10.0.0.2", "10.0.0.3", "10.0.0.4"], "equals in turn")
    }

    @Test func aMessageSuspendedPastTheFloorLimitPassesTheFloorOn() async {
      let turns = SessionTurns(floorLimit: .milliseconds(20))
      // Held and never ended: a message waiting on a database that does not answer.
      let stuck = await turns.turn(for: "10.0.0.1")
      let next = Task { @MainActor in
        let turn = await turns.turn(for: "10.0.0.2")
        turns.end(turn)
        return turn.ticket
      }
      let ticket = await next.value
      #expect(ticket != stuck.ticket)
      // The stuck message's own end later does not take the floor from anyone.
      turns.end(stuck)
      let after = await turns.turn(for: "10.0.0.3")
      turns.end(after)
    }

    @Test func aSocketHandedTheFloorWhenItsAddressHasSpentItsShareWaitsForIt() async {
      let turns = SessionTurns(burst: .milliseconds(200), share: 0.25, floorLimit: .seconds(60))
      let holder = await turns.turn(for: "10.0.0.9")
      // Another socket of 10.0.0.9 and a visitor wait; meanwhile the address spends its burst.
      let sibling = Task { @MainActor in
        let turn = await turns.turn(for: "10.0.0.9")
        turns.end(turn)
        return ContinuousClock.now
      }
      while turns.waitingCount < 1 { await Task.yield() }
      let spentAt = ContinuousClock.now
      turns.spend(.milliseconds(210), by: "10.0.0.9", now: spentAt)
      turns.end(holder, now: holder.started)
      let visitor = await turns.turn(for: "10.0.0.77")
      turns.end(visitor)
      let handled = await sibling.value
      #expect(visitor.started < handled, "the visitor went first")
      // 10 ms over the burst, paid back at a quarter of each second: about 40 ms after the
      // spending, however late a loaded machine ran the visitor.
      #expect(handled - spentAt >= .milliseconds(30))
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

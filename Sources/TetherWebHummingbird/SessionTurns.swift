#if WebServer
  import Foundation

  /// How the sessions of a process share the one main actor they all run on.
  ///
  /// Two rules, both in time spent handling messages (a message's render included) and
  /// loading pages (their first render included):
  ///
  /// - **An address's share.** Each address's sockets may take a burst, then a steady share of
  ///   each second. An address past its share waits before its next message while everyone
  ///   else's work goes on, so one visitor's heaviest gestures cannot hold the main actor. A
  ///   person's clicks (a few a second, milliseconds each) never come near it.
  /// - **One message on the floor.** Only one socket's message is handled at a time; the others
  ///   wait here, off the main actor, and the next turn goes to the waiting address that has used
  ///   the main actor least lately (its use halves each second). Shares alone do not bound a
  ///   page load's wait: eight addresses each within a quarter of a second ask for twice the
  ///   main actor, and their messages would queue on it ahead of the page load, which then
  ///   waits for all of them. A page load and a socket's hello take turns too
  ///   (``inTurn(of:_:)``): a page load goes to the main actor several times, and would
  ///   otherwise wait for a heavy message at each. So a visitor's page load or click waits for
  ///   the message on the floor, and at most one more that was handed it meanwhile.
  ///
  /// A message suspended on something else (a database, the network) holds the floor for at
  /// most ``floorLimit`` while others wait; then it is passed on and the message finishes
  /// beside the next.
  @MainActor final class SessionTurns {
    /// The servers of a process share one main actor, so one ledger.
    static let shared = SessionTurns()

    /// The time an address may take at once.
    let burst: Duration
    /// The share of each second an address may take after its burst.
    let share: Double
    /// How long, in wall time, one message holds the floor while others wait.
    let floorLimit: Duration

    private var allowances: [String: (left: Duration, at: ContinuousClock.Instant)] = [:]
    /// Each address's use of the main actor lately, in seconds, halved each second since `at`.
    private var recent: [String: (seconds: Double, at: ContinuousClock.Instant)] = [:]
    /// The turn on the floor, and since when.
    private var floor: (ticket: Int, since: ContinuousClock.Instant)?
    private var tickets = 0
    private var waiting:
      [(ticket: Int, address: String, resume: CheckedContinuation<Void, Never>)] =
        []
    /// Passes the floor on from a message held past ``floorLimit``; runs only while some wait.
    private var watchdog: Task<Void, Never>?

    init(
      burst: Duration = .milliseconds(200), share: Double = 0.25,
      floorLimit: Duration = .milliseconds(20)
    ) {
      self.burst = burst
      self.share = share
      self.floorLimit = floorLimit
    }

    /// A message's turn: taken by ``turn(for:)``, given back by ``end(_:now:)``.
    struct Turn {
      let ticket: Int
      let address: String?
      let started: ContinuousClock.Instant
    }

    /// Returns once `address` may handle its next message: it has allowance left (unless
    /// `waitingForShare` is `false`), and no other message is on the floor.
    func turn(for address: String?, waitingForShare: Bool = true) async -> Turn {
      while true {
        let wait = waitingForShare ? wait(for: address) : .zero
        if wait > .zero {
          try? await Task.sleep(for: wait)
          continue
        }
        tickets &+= 1
        let ticket = tickets
        if floor == nil {
          floor = (ticket, .now)
        } else {
          await withCheckedContinuation { continuation in
            waiting.append((ticket, address ?? "", continuation))
            startWatchdog()
          }
        }
        // Handed the floor. The address's other sockets may have spent its allowance while
        // this one waited: it then passes the floor on and waits for its share.
        if waitingForShare, self.wait(for: address) > .zero {
          pass(ticket)
          continue
        }
        return Turn(ticket: ticket, address: address, started: .now)
      }
    }

    /// `turn`'s message has been handled: its time is charged to its address and the floor
    /// goes to the next.
    func end(_ turn: Turn, now: ContinuousClock.Instant = .now) {
      spend(now - turn.started, by: turn.address, now: now)
      pass(turn.ticket)
    }

    /// Runs `work` (a page load, a socket's hello) in a turn of `address`'s: it waits for the
    /// floor as a message does, and its time is charged to the address, but it does not wait
    /// for the address's share — a page load or a hello has deadlines of its own, and how many
    /// an address may have at once is bounded elsewhere (``WebSessionRegistry``'s limits).
    func inTurn<Result: Sendable>(
      of address: String?, _ work: @MainActor @Sendable () async -> Result
    ) async -> Result {
      let turn = await turn(for: address, waitingForShare: false)
      defer { end(turn) }
      return await work()
    }

    /// How many messages wait for the floor.
    var waitingCount: Int { waiting.count }

    /// How long `address`'s next message waits for its allowance (`.zero` while it has some).
    func wait(for address: String?, now: ContinuousClock.Instant = .now) -> Duration {
      let left = allowance(of: address ?? "", now: now)
      guard left < .zero else { return .zero }
      return (.zero - left) / share
    }

    /// `address`'s sockets took `time` of the main actor.
    func spend(_ time: Duration, by address: String?, now: ContinuousClock.Instant = .now) {
      let key = address ?? ""
      allowances[key] = (allowance(of: key, now: now) - time, now)
      recent[key] = (recentUse(of: key, now: now) + time.seconds, now)
      if allowances.count > 10_000 {
        // An address whose allowance has grown back in full is as good as unknown.
        allowances = allowances.filter { _, allowance in
          allowance.left + (now - allowance.at) * share < burst
        }
      }
      if recent.count > 10_000 {
        recent = recent.filter { key, _ in recentUse(of: key, now: now) > 0.001 }
      }
    }

    /// `key`'s use of the main actor lately, in seconds: what it spent, halved each second.
    private func recentUse(of key: String, now: ContinuousClock.Instant) -> Double {
      guard let (seconds, at) = recent[key] else { return 0 }
      return seconds * exp2(-(now - at).seconds)
    }

    private func allowance(of key: String, now: ContinuousClock.Instant) -> Duration {
      guard let (left, at) = allowances[key] else { return burst }
      return min(burst, left + (now - at) * share)
    }

    /// Gives the floor up, if `ticket` still holds it (the watchdog may have passed it on).
    private func pass(_ ticket: Int) {
      guard floor?.ticket == ticket else { return }
      floor = nil
      guard !waiting.isEmpty else { return }
      // The choice is made in a job of its own, behind those already queued on the main
      // actor: a page load that reached it during the message just handled asks for the floor
      // first and is among those chosen from (else it would wait for one more message). Until
      // then the floor is held, so no one takes it without being chosen.
      floor = (Self.choosing, .now)
      Task { @MainActor in
        guard floor?.ticket == Self.choosing else { return }
        floor = nil
        handOver()
      }
    }

    /// The floor's holder while the next is chosen.
    private static let choosing = 0

    /// Hands the free floor to the waiting message whose address has used the main actor least
    /// lately (the earliest of equals): a visitor's click goes before the tabs that keep it
    /// busy, however many of them wait, even while each is within its share.
    private func handOver() {
      guard floor == nil, var chosen = waiting.indices.first else { return }
      let now = ContinuousClock.now
      var least = recentUse(of: waiting[chosen].address, now: now)
      for index in waiting.indices.dropFirst() {
        let use = recentUse(of: waiting[index].address, now: now)
        if use < least {
          chosen = index
          least = use
        }
      }
      let next = waiting.remove(at: chosen)
      floor = (next.ticket, now)
      next.resume.resume()
    }

    private func startWatchdog() {
      guard watchdog == nil else { return }
      watchdog = Task { @MainActor in
        while !waiting.isEmpty, let (ticket, since) = floor {
          let deadline = since + floorLimit
          if deadline > .now {
            try? await Task.sleep(until: deadline, clock: .continuous)
          } else if floor?.ticket == ticket {
            floor = nil
            handOver()
          }
        }
        watchdog = nil
      }
    }
  }

  extension Duration {
    fileprivate var seconds: Double {
      let (seconds, attoseconds) = components
      return Double(seconds) + Double(attoseconds) * 1e-18
    }
  }
#endif

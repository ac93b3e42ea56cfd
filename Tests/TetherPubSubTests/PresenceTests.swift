import Synchronization
import Testing
import Tether
import TetherTesting

@testable import TetherPubSub

/// Who is on a topic, kept in step across nodes: joins, leaves, a late node, a lost message,
/// a node that dies without a word.
@Suite(.timeLimit(.minutes(1))) struct PresenceTests {
  let viewers = PresenceTopic<Viewer>("list.42.viewers")
  /// Fast heartbeats, so a silent node's entries leave within a test's patience.
  let timing = PresenceTiming(heartbeat: .milliseconds(20), timeout: .milliseconds(100))

  /// Reads updates until one satisfies `condition`; the stream's end fails the test.
  func next(
    _ updates: inout AsyncStream<PresenceUpdate<Viewer>>.Iterator,
    isolation: isolated (any Actor)? = #isolation,
    where condition: (PresenceUpdate<Viewer>) -> Bool
  ) async -> PresenceUpdate<Viewer>? {
    while let update = await updates.next(isolation: isolation) {
      if condition(update) { return update }
    }
    return nil
  }

  @Test func twoNodesSeeEachOthersJoinsAndLeaves() async throws {
    let bus = InProcessPubSub()
    let first = PubSub(transport: bus.transport(), node: "a", presenceTiming: timing)
    let second = PubSub(transport: bus.transport(), node: "b", presenceTiming: timing)
    try await first.start()
    try await second.start()
    var seenBySecond = second.presenceUpdates(on: viewers).makeAsyncIterator()
    let initial = await seenBySecond.next()
    #expect(initial?.present == [])

    let ada = try await first.track("ada", meta: Viewer(name: "Ada"), on: viewers)
    let joined = await next(&seenBySecond) { !$0.joins.isEmpty }
    #expect(joined?.joins.map(\.key) == ["ada"])
    #expect(joined?.present.map(\.meta) == [Viewer(name: "Ada")])
    #expect(joined?.present.first?.node == "a")

    try await second.track("bob", meta: Viewer(name: "Bob"), on: viewers)
    var seenByFirst = first.presenceUpdates(on: viewers).makeAsyncIterator()
    let both = await next(&seenByFirst) { $0.present.count == 2 }
    #expect(both?.present.map(\.key) == ["ada", "bob"])

    await first.untrack(ada)
    let left = await next(&seenBySecond) { !$0.leaves.isEmpty }
    #expect(left?.leaves.map(\.key) == ["ada"])
    #expect(left?.present.map(\.key) == ["bob"])
    await first.shutdown()
    await second.shutdown()
  }

  /// The size checked is the join's as sent: metadata full of quotes is escaped once in its own
  /// JSON and again inside the join's, and a join past the limit must be refused before it is
  /// tracked or sent, not after a transport (PostgreSQL's 8,000 bytes) cuts it off.
  @Test func aJoinWhoseEscapedMetadataIsTooLargeIsRefusedAndNothingIsTracked() async throws {
    let bus = InProcessPubSub()
    let node = PubSub(
      transport: bus.transport(), node: "a", limits: PubSubLimits(maximumMessageBytes: 200))
    try await node.start()
    // 131 bytes as the metadata's JSON, about 260 inside the join.
    let quotes = Viewer(name: String(repeating: "\"", count: 60))
    await #expect(throws: PubSubError.self) {
      try await node.track("v", meta: quotes, on: viewers)
    }
    #expect(node.present(on: viewers).isEmpty, "nothing tracked")
    // Within the limit once escaped, a join is taken.
    try await node.track("w", meta: Viewer(name: "plain"), on: viewers)
    #expect(node.present(on: viewers).map(\.key) == ["w"])
    await node.shutdown()
  }

  @Test func oneKeyTrackedTwiceIsTwoEntries() async throws {
    let node = PubSub(transport: InProcessPubSub().transport(), presenceTiming: timing)
    try await node.start()
    let firstTab = try await node.track("ada", meta: Viewer(name: "Ada"), on: viewers)
    try await node.track("ada", meta: Viewer(name: "Ada on her phone"), on: viewers)
    #expect(node.present(on: viewers).map(\.key) == ["ada", "ada"])
    await node.untrack(firstTab)
    await node.untrack(firstTab)
    #expect(node.present(on: viewers).map(\.meta.name) == ["Ada on her phone"])
    await node.shutdown()
  }

  @Test func aNodeThatStartsLaterLearnsWhoIsAlreadyThere() async throws {
    let bus = InProcessPubSub()
    let first = PubSub(transport: bus.transport(), node: "a", presenceTiming: timing)
    try await first.start()
    for name in ["ada", "bob", "cy"] {
      try await first.track(name, meta: Viewer(name: name), on: viewers)
    }
    let late = PubSub(transport: bus.transport(), node: "late", presenceTiming: timing)
    try await late.start()
    var updates = late.presenceUpdates(on: viewers).makeAsyncIterator()
    let full = await next(&updates) { $0.present.count == 3 }
    #expect(full?.present.map(\.key) == ["ada", "bob", "cy"])
    await first.shutdown()
    await late.shutdown()
  }

  /// Many entries in a small transport: the state answering a late node comes in parts.
  @Test func aStateLargerThanOnePayloadArrivesInParts() async throws {
    let bus = InProcessPubSub()
    let first = PubSub(
      transport: bus.transport(maximumPayloadBytes: 600), node: "a", presenceTiming: timing)
    try await first.start()
    for index in 0..<40 {
      try await first.track("viewer-\(index)", meta: Viewer(name: "Viewer \(index)"), on: viewers)
    }
    let late = PubSub(
      transport: bus.transport(maximumPayloadBytes: 600), node: "late", presenceTiming: timing)
    try await late.start()
    var updates = late.presenceUpdates(on: viewers).makeAsyncIterator()
    let full = await next(&updates) { $0.present.count == 40 }
    #expect(full?.present.count == 40)
    await first.shutdown()
    await late.shutdown()
  }

  @Test func aDeadNodesEntriesLeaveWithinTheTimeoutAndAGoodbyeAtOnce() async throws {
    let bus = InProcessPubSub()
    let doomedTransport = bus.transport()
    let doomed = PubSub(transport: doomedTransport, node: "doomed", presenceTiming: timing)
    let polite = PubSub(transport: bus.transport(), node: "polite", presenceTiming: timing)
    let survivor = PubSub(transport: bus.transport(), node: "survivor", presenceTiming: timing)
    for node in [doomed, polite, survivor] { try await node.start() }
    try await doomed.track("ada", meta: Viewer(name: "Ada"), on: viewers)
    try await polite.track("bob", meta: Viewer(name: "Bob"), on: viewers)
    var updates = survivor.presenceUpdates(on: viewers).makeAsyncIterator()
    _ = await next(&updates) { $0.present.count == 2 }

    await polite.shutdown()
    let goodbye = await next(&updates) { !$0.leaves.isEmpty }
    #expect(goodbye?.leaves.map(\.key) == ["bob"])

    let severed = ContinuousClock.now
    doomedTransport.sever()
    let expired = await next(&updates) { !$0.leaves.isEmpty }
    let waited = severed.duration(to: .now)
    #expect(expired?.leaves.map(\.key) == ["ada"])
    #expect(expired?.present.isEmpty == true)
    // Within the timeout plus one heartbeat of the last heartbeat heard, plus scheduling.
    #expect(waited < .seconds(2))
    await doomed.shutdown()
    await survivor.shutdown()
  }

  /// A join lost on the way, with no change after it: the next heartbeat names a version the
  /// other node has not seen, and it asks for the whole state (or the state it asked for when
  /// it started already holds the entry).
  @Test func aLostJoinIsRecoveredWithoutAnotherChange() async throws {
    let bus = InProcessPubSub()
    let first = PubSub(transport: bus.transport(), node: "a", presenceTiming: timing)
    let lossy = DroppingTransport(bus.transport()) { $0.contains("\u{1F}j\u{1F}") }
    let second = PubSub(transport: lossy, node: "b", presenceTiming: timing)
    try await first.start()
    try await second.start()
    var updates = second.presenceUpdates(on: viewers).makeAsyncIterator()
    _ = await updates.next()
    try await first.track("ada", meta: Viewer(name: "Ada"), on: viewers)
    lossy.stopDropping()
    #expect(lossy.dropped == 1)
    let recovered = await next(&updates) { $0.present.count == 1 }
    #expect(recovered?.present.map(\.key) == ["ada"])
    try await first.track("bob", meta: Viewer(name: "Bob"), on: viewers)
    let both = await next(&updates) { $0.present.count == 2 }
    #expect(both?.present.map(\.key) == ["ada", "bob"])
    await first.shutdown()
    await second.shutdown()
  }

  @Test func theTablesVersionRuleAppliesTheNextChangeAndAsksOnAGap() {
    var table = PresenceTable(node: "me")
    let now = ContinuousClock.now
    func join(_ version: UInt64, _ ref: String) -> Envelope {
      let body = PresenceWire.encode(
        PresenceWire.Join(v: version, t: "t", r: ref, k: "key-\(ref)", m: "{}"))
      return Envelope(kind: .join, node: "other", topic: "t", body: body ?? "")
    }
    let first = table.receive(join(1, "r1"), now: now, syncSpacing: .seconds(1))
    #expect(first.changes.joins["t"]?.map(\.ref) == ["r1"])
    #expect(!first.askState)
    let gap = table.receive(join(3, "r3"), now: now, syncSpacing: .seconds(1))
    #expect(gap.changes.isEmpty)
    #expect(gap.askState)
    let again = table.receive(join(4, "r4"), now: now, syncSpacing: .seconds(1))
    #expect(!again.askState, "one request per spacing")
    let old = table.receive(join(1, "r1"), now: now, syncSpacing: .seconds(1))
    #expect(old.changes.isEmpty && !old.askState && !old.malformed)
    #expect(table.items(on: "t").map(\.ref) == ["r1"])
    let expired = table.expire(now: now.advanced(by: .seconds(5)), timeout: .seconds(1))
    #expect(expired.leaves["t"]?.map(\.ref) == ["r1"])
    #expect(table.remotes.isEmpty)
  }

  @MainActor final class ListViewModel: @MainActor LifetimeProvider {
    let lifetime = Lifetime()
    let viewers: Property<[PresenceEntry<Viewer>]>
    private(set) var lines: Signal<ChatLine> = .never

    init(pubsub: PubSub, viewers topic: PresenceTopic<Viewer>, room: Topic<ChatLine>) {
      viewers = pubsub.presence(on: topic)
      lines = pubsub.signal(for: room, owner: self)
    }
  }

  /// A view model's side: a signal and a property that follow the topics while it lives, and
  /// an entry that leaves with it.
  @MainActor @Test func aViewModelFollowsTopicsWhileItLivesAndItsEntryLeavesWithIt() async throws {
    let bus = InProcessPubSub()
    let server = PubSub(transport: bus.transport(), node: "server", presenceTiming: timing)
    let other = PubSub(transport: bus.transport(), node: "other", presenceTiming: timing)
    try await server.start()
    try await other.start()
    let room = Topic<ChatLine>("chat.list.42")
    var model: ListViewModel? = ListViewModel(pubsub: server, viewers: viewers, room: room)
    weak let weakModel = model
    let lines = try #require(model).lines.record()
    var seen: Recorder<[PresenceEntry<Viewer>]>? = try #require(model).viewers.record()
    try await server.track(
      "ada", meta: Viewer(name: "Ada"), on: viewers, owner: try #require(model))
    try await other.track("bob", meta: Viewer(name: "Bob"), on: viewers)
    try await other.publish(ChatLine(author: "bob", text: "hi"), to: room)
    await expectEventually { lines.values == [ChatLine(author: "bob", text: "hi")] }
    await expectEventually { seen?.values.last?.map(\.key) == ["ada", "bob"] }

    var fromOther = other.presenceUpdates(on: viewers).makeAsyncIterator()
    model = nil
    #expect(weakModel == nil)
    let left = await next(&fromOther) { !$0.leaves.isEmpty }
    #expect(left?.leaves.map(\.key) == ["ada"])
    // The recorder kept the presence property, and the property its subscription.
    await expectEventually { server.subscriberCount == 1 }
    seen = nil
    await expectEventually { server.subscriberCount == 0 }
    await server.shutdown()
    await other.shutdown()
  }
}

/// A transport that drops the payloads `drops` matches until told to stop: a lost message.
final class DroppingTransport: PubSubTransport {
  private let inner: InProcessPubSub.Transport
  private let drops: @Sendable (String) -> Bool
  private let state = Locked((dropping: true, dropped: 0))

  init(_ inner: InProcessPubSub.Transport, drops: @escaping @Sendable (String) -> Bool) {
    self.inner = inner
    self.drops = drops
  }

  var maximumPayloadBytes: Int { inner.maximumPayloadBytes }
  var dropped: Int { state.withLock { $0.dropped } }
  func stopDropping() { state.withLock { $0.dropping = false } }

  func connect(_ receive: @escaping @Sendable (String) -> Void) async throws(PubSubError) {
    try await inner.connect { [self] payload in
      let drop = state.withLock { state -> Bool in
        guard state.dropping, drops(payload) else { return false }
        state.dropped += 1
        return true
      }
      if !drop { receive(payload) }
    }
  }

  func send(_ payload: String) async throws(PubSubError) { try await inner.send(payload) }
  func disconnect() async { await inner.disconnect() }
}

/// A subscriber that stops while a change is delivered to it: the runtime ends its stream
/// holding the ending task's lock, while the delivery, under the node's lock, waits for that
/// task to take the change. The node must not wait for its own lock there.
@Suite(.timeLimit(.minutes(1))) struct PresenceSubscriberEndTests {
  @Test func subscribersEndingWhileChangesAreDeliveredNeverStopTheNode() async throws {
    let bus = InProcessPubSub()
    let node = PubSub(transport: bus.transport(), node: "a")
    try await node.start()
    let topic = PresenceTopic<Viewer>("photo.1.viewers")
    // Changes delivered all the while, from another task.
    let churn = Task.detached {
      var round = 0
      while !Task.isCancelled {
        round += 1
        guard let reference = try? await node.track("c\(round)", meta: Viewer(name: "c"), on: topic)
        else { return }
        await node.untrack(reference)
      }
    }
    for _ in 0..<2_000 {
      let updates = node.presenceUpdates(on: topic)
      let reader = Task.detached {
        for await _ in updates {}
      }
      await Task.yield()
      reader.cancel()
    }
    churn.cancel()
    await churn.value
    // The node still answers: a new subscriber hears a join.
    var updates = node.presenceUpdates(on: topic).makeAsyncIterator()
    _ = await updates.next()
    try await node.track("last", meta: Viewer(name: "last"), on: topic)
    let joined = await updates.next()
    #expect(joined?.joins.map(\.key) == ["last"])
    await node.shutdown()
  }
}

import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing
import TetherPubSub
import TetherPubSubPostgres

/// TetherPubSub across nodes through one PostgreSQL database: what one node publishes reaches
/// the others, presence is kept in step, and a node that falls silent loses its entries.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PostgresPubSubTests {
  struct Note: Codable, Sendable, Equatable { var text: String }
  struct Viewer: Codable, Sendable, Equatable { var name: String }

  let notes = Topic<Note>("notes.board-1")
  let viewers = PresenceTopic<Viewer>("board-1.viewers")
  let timing = PresenceTiming(heartbeat: .milliseconds(100), timeout: .milliseconds(500))

  func configuration() throws -> PostgresConnection.Configuration {
    let url = try TestPostgres.shared.url()
    guard let components = URLComponents(string: url), let host = components.host else {
      throw URLError(.badURL)
    }
    return PostgresConnection.Configuration(
      host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
      password: nil, database: String(components.path.dropFirst()), tls: .disable)
  }

  func node(_ name: String, channel: String) throws -> (PubSub, KillableTransport) {
    let transport = KillableTransport(
      PostgresPubSubTransport(
        configuration: try configuration(), channel: channel, logger: Logger(label: name)))
    return (PubSub(transport: transport, node: name, presenceTiming: timing), transport)
  }

  func next<Value>(
    _ iterator: inout AsyncStream<Value>.Iterator, where condition: (Value) -> Bool
  ) async -> Value? {
    while let value = await iterator.next() {
      if condition(value) { return value }
    }
    return nil
  }

  @Test func aMessageAndAPresenceCrossNodesAndADeadNodesPresencesLeave() async throws {
    let (first, _) = try node("first", channel: "pubsub_cross")
    let (second, _) = try node("second", channel: "pubsub_cross")
    let (doomed, doomedTransport) = try node("doomed", channel: "pubsub_cross")
    for node in [first, second, doomed] { try await node.start() }

    var received = second.messages(on: notes).makeAsyncIterator()
    try await first.publish(Note(text: "ship it"), to: notes, from: "ada")
    #expect(await received.next() == Note(text: "ship it"))

    var seen = first.presenceUpdates(on: viewers).makeAsyncIterator()
    try await second.track("bob", meta: Viewer(name: "Bob"), on: viewers)
    try await doomed.track("cy", meta: Viewer(name: "Cy"), on: viewers)
    let both = await next(&seen) { $0.present.count == 2 }
    #expect(both?.present.map(\.key) == ["bob", "cy"])

    let killed = ContinuousClock.now
    doomedTransport.kill()
    let left = await next(&seen) { !$0.leaves.isEmpty }
    #expect(left?.leaves.map(\.key) == ["cy"])
    #expect(left?.present.map(\.key) == ["bob"])
    // The timeout (500 ms) plus one heartbeat (100 ms) after the last heartbeat heard.
    #expect(killed.duration(to: .now) < .seconds(3))
    for node in [first, second, doomed] { await node.shutdown() }
  }

  /// The database ends a node's listening connection: it listens again, and the join it
  /// missed meanwhile is recovered from the next heartbeat.
  @Test func aLostListeningConnectionIsOpenedAgainAndPresenceCatchesUp() async throws {
    let (first, _) = try node("first", channel: "pubsub_lost")
    let postgres = PostgresPubSubTransport(
      configuration: try configuration(), channel: "pubsub_lost", logger: Logger(label: "second"))
    let second = PubSub(transport: postgres, node: "second", presenceTiming: timing)
    try await first.start()
    try await second.start()
    var seen = second.presenceUpdates(on: viewers).makeAsyncIterator()
    _ = await seen.next()

    // Only this test's channel: the stores' suites listen on the same server meanwhile.
    try await TestPostgres.execute(
      """
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE query ILIKE 'LISTEN%pubsub_lost%' AND pid <> pg_backend_pid()
      """, url: TestPostgres.shared.url())
    // The loss is seen (the transport waits half a second before it listens again), and the
    // join is sent while this node does not listen.
    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
    while postgres.isListening, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(!postgres.isListening)
    try await first.track("ada", meta: Viewer(name: "Ada"), on: viewers)
    let caughtUp = await next(&seen) { $0.present.count == 1 }
    #expect(caughtUp?.present.map(\.key) == ["ada"])
    #expect(postgres.isListening)
    await first.shutdown()
    await second.shutdown()
  }

  @Test func aPayloadOverANotificationsLimitIsRefused() async throws {
    let (node, _) = try node("big", channel: "pubsub_big")
    try await node.start()
    let limited = PubSub(
      transport: PostgresPubSubTransport(
        configuration: try configuration(), channel: "pubsub_big", logger: Logger(label: "big")),
      limits: PubSubLimits(maximumMessageBytes: 100_000))
    try await limited.start()
    await #expect(throws: PubSubError.self) {
      try await limited.publish(Note(text: String(repeating: "x", count: 9_000)), to: notes)
    }
    await node.shutdown()
    await limited.shutdown()
  }
}

/// A transport that can die as a process does: from `kill()` on it sends nothing, hears
/// nothing, and says goodbye to no one.
final class KillableTransport: PubSubTransport {
  private let inner: PostgresPubSubTransport
  private let dead = Mutex(false)

  init(_ inner: PostgresPubSubTransport) {
    self.inner = inner
  }

  var maximumPayloadBytes: Int { inner.maximumPayloadBytes }

  func kill() {
    dead.withLock { $0 = true }
    Task { await inner.disconnect() }
  }

  func connect(_ receive: @escaping @Sendable (String) -> Void) async throws(PubSubError) {
    try await inner.connect { [weak self] payload in
      guard let self, !self.dead.withLock({ $0 }) else { return }
      receive(payload)
    }
  }

  func send(_ payload: String) async throws(PubSubError) {
    guard !dead.withLock({ $0 }) else { throw .transport("killed") }
    try await inner.send(payload)
  }

  func disconnect() async {
    await inner.disconnect()
  }
}

import Foundation
import Synchronization
import Tether

/// One node's publish–subscribe and presence: typed messages on named topics, reaching every
/// subscriber on every node its transport joins, and who is on a topic, kept in step across
/// nodes.
///
/// One server makes one `PubSub` on an ``InProcessPubSub`` bus; a cluster gives each node one
/// on its database's notifications (`PostgresPubSubTransport`). A view model subscribes as a
/// `Signal` that lives as long as it does (``signal(for:owner:isolation:)``):
///
/// ```swift
/// let pubsub = PubSub(transport: InProcessPubSub().transport())
/// try await pubsub.start()
/// try await pubsub.publish(ChatLine(author: "Ada", text: "Hello"), to: room, from: "session-1")
/// ```
///
/// Subscribers on this node get a message at once; other nodes' subscribers once the transport
/// carries it, in the order each node published. A message is checked before it leaves:
/// its topic's name, its encoded size against ``PubSubLimits/maximumMessageBytes`` (and the
/// transport's own limit), and its publisher's rate. A payload from another node that does not
/// decode is dropped and counted in ``droppedMessages``.
public final class PubSub: Sendable {
  /// The longest topic name or presence key, in UTF-8 bytes.
  public static let maximumTopicBytes = Names.maximumBytes

  /// This node's id, unique in its cluster (random unless given).
  public let node: String
  /// What this node accepts from its publishers.
  public let limits: PubSubLimits
  /// How this node and the others say they are alive.
  public let presenceTiming: PresenceTiming

  private let transport: any PubSubTransport
  private let state: Locked<State>
  private let outgoing: AsyncStream<Outgoing>
  private let outbox: AsyncStream<Outgoing>.Continuation
  private let dropped = Atomic<Int>(0)

  private struct Outgoing: Sendable {
    var payload: String
    var done: (@Sendable (PubSubError?) -> Void)?
  }

  private struct Bucket {
    var tokens: Double
    var refilled: ContinuousClock.Instant
  }

  private enum Phase { case idle, starting, running, stopped }

  private struct Subscriber<Input> {
    var deliver: @Sendable (Input) -> Void
    var finish: @Sendable () -> Void
  }

  private struct State {
    var phase = Phase.idle
    var nextID = 0
    var messageSubscribers: [String: [Int: Subscriber<String>]] = [:]
    var presenceSubscribers: [String: [Int: Subscriber<([PresenceItem], PresenceChanges)>]] = [:]
    var presence: PresenceTable
    var buckets: [String: Bucket] = [:]
    var tasks: [Task<Void, Never>] = []
  }

  /// Creates a node, not yet started.
  ///
  /// - Parameters:
  ///   - transport: What joins it to the other nodes.
  ///   - node: Its id; a random one unless given. Two live nodes must not share one.
  ///   - limits: What it accepts from its publishers.
  ///   - presenceTiming: How often it says it is alive, and how long others may be silent.
  public init(
    transport: some PubSubTransport, node: String? = nil, limits: PubSubLimits = PubSubLimits(),
    presenceTiming: PresenceTiming = PresenceTiming()
  ) {
    let id = node.flatMap { Names.isValid($0) ? $0 : nil } ?? Self.randomNodeID()
    self.node = id
    self.limits = limits
    self.presenceTiming = presenceTiming
    self.transport = transport
    state = Locked(State(presence: PresenceTable(node: id)))
    (outgoing, outbox) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
  }

  /// Connects to the transport and starts saying this node is alive; returns once other nodes'
  /// payloads are delivered. Starting a started node does nothing.
  ///
  /// - Throws: ``PubSubError/transport(_:)`` when the transport cannot be reached, and
  ///   ``PubSubError/notRunning`` after ``shutdown()``.
  public func start() async throws(PubSubError) {
    let go = state.withLock { state -> Bool? in
      switch state.phase {
      case .idle:
        state.phase = .starting
        return true
      case .starting, .running: return false
      case .stopped: return nil
      }
    }
    guard let go else { throw .notRunning }
    guard go else { return }
    do {
      try await transport.connect { [weak self] payload in self?.receive(payload) }
    } catch {
      state.withLock { $0.phase = .idle }
      throw error
    }
    let sender = Task { [outgoing, transport] in
      for await item in outgoing {
        do throws(PubSubError) {
          try await transport.send(item.payload)
          item.done?(nil)
        } catch {
          item.done?(error)
        }
      }
    }
    let heartbeat = Task { [weak self, presenceTiming] in
      while !Task.isCancelled {
        do { try await Task.sleep(for: presenceTiming.heartbeat) } catch { return }
        self?.beat()
      }
    }
    state.withLock { state in
      state.phase = .running
      state.tasks = [sender, heartbeat]
    }
    // Whoever is already on the transport says who is on its topics.
    enqueue(.syncRequest, topic: "", body: "")
  }

  /// Says goodbye (every other node drops this node's presences at once), stops, and ends
  /// every subscription's stream.
  public func shutdown() async {
    // The goodbye is queued in the same hold of the lock that stops the node: every payload
    // queued while it ran is ahead of it, so once the goodbye is sent, none is left behind in
    // the queue that the sender's end would drop unanswered.
    let goodbye = state.withLock { state -> Sending? in
      let running = state.phase == .running
      state.phase = .stopped
      return running ? queue(.goodbye, topic: "", body: "") : nil
    }
    if let goodbye { _ = await goodbye.answer() }
    outbox.finish()
    let (tasks, finishers) = state.withLock { state in
      let tasks = state.tasks
      state.tasks = []
      let finishers =
        state.messageSubscribers.values.flatMap { $0.values.map(\.finish) }
        + state.presenceSubscribers.values.flatMap { $0.values.map(\.finish) }
      state.messageSubscribers = [:]
      state.presenceSubscribers = [:]
      return (tasks, finishers)
    }
    for finish in finishers { finish() }
    for task in tasks { task.cancel() }
    await transport.disconnect()
  }

  deinit {
    outbox.finish()
    for task in state.withLock({ $0.tasks }) { task.cancel() }
  }

  /// Whether the node is started and not shut down.
  public var isRunning: Bool { state.withLock { $0.phase == .running } }

  /// How many payloads from other nodes were dropped: unreadable, a presence change that does
  /// not decode, or a message that did not decode as its topic's type.
  public var droppedMessages: Int { dropped.load(ordering: .relaxed) }

  // MARK: Messages

  /// Sends `message` to every subscriber of `topic`, on every node.
  ///
  /// - Parameters:
  ///   - message: The message.
  ///   - topic: Its topic.
  ///   - publisher: Who sends it (a session, a user), for the rate limit; each publisher has
  ///     its own allowance.
  /// - Throws: ``PubSubError/invalidTopic(_:)``, ``PubSubError/tooLarge(bytes:limit:)``,
  ///   ``PubSubError/rateLimited(publisher:)``, ``PubSubError/encoding(_:)``,
  ///   ``PubSubError/notRunning``, or ``PubSubError/transport(_:)`` when the other nodes could
  ///   not be reached (this node's subscribers have it already).
  public func publish<Message>(
    _ message: Message, to topic: Topic<Message>, from publisher: String = ""
  ) async throws(PubSubError) {
    guard Names.isValid(topic.name) else { throw .invalidTopic(topic.name) }
    let body: String
    do {
      body = try Self.encode(message)
    } catch {
      throw .encoding(String(describing: error))
    }
    try checkSize(body, topic: topic.name)
    let (local, sending) = try state.withLock { state throws(PubSubError) in
      guard state.phase == .running else { throw PubSubError.notRunning }
      try Self.spend(&state.buckets, publisher: publisher, limits: limits)
      return (
        state.messageSubscribers[topic.name].map { $0.values.map(\.deliver) } ?? [],
        queue(.message, topic: topic.name, body: body)
      )
    }
    for deliver in local { deliver(body) }
    if let error = await sending.answer() { throw error }
  }

  /// Every message on `topic` from now on, from every node, in the order each node published.
  ///
  /// A subscriber that falls more than ``PubSubLimits/subscriberBuffer`` messages behind loses
  /// the oldest it has not taken. The stream ends when the subscriber stops iterating or the
  /// node shuts down.
  ///
  /// - Parameter topic: The topic.
  /// - Returns: The messages.
  public func messages<Message>(on topic: Topic<Message>) -> AsyncStream<Message> {
    let (stream, continuation) = AsyncStream<Message>.makeStream(
      bufferingPolicy: .bufferingNewest(limits.subscriberBuffer))
    let id = state.withLock { state -> Int? in
      guard state.phase != .stopped, Names.isValid(topic.name) else { return nil }
      let id = state.nextID
      state.nextID += 1
      state.messageSubscribers[topic.name, default: [:]][id] = Subscriber(
        deliver: { [weak self] body in
          guard let message = try? Self.decode(Message.self, from: body) else {
            self?.dropped.add(1, ordering: .relaxed)
            return
          }
          continuation.yield(message)
        },
        finish: { continuation.finish() })
      return id
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      self?.later { Self.unsubscribe(id, from: topic.name, in: &$0.messageSubscribers) }
    }
    return stream
  }

  /// How many subscriptions are open on this node, over every topic and presence topic.
  public var subscriberCount: Int {
    state.withLock { state in
      state.messageSubscribers.values.reduce(0) { $0 + $1.count }
        + state.presenceSubscribers.values.reduce(0) { $0 + $1.count }
    }
  }

  // MARK: Presence

  /// Says `key` is on `topic`, with `meta`, until ``untrack(_:)``, this node's shutdown, or
  /// this node falling silent.
  ///
  /// One key may be tracked many times (one person in two tabs): each tracking is its own
  /// entry.
  ///
  /// - Parameters:
  ///   - key: Who is here: a person's id, a tab's.
  ///   - meta: What the others see of them (a name, a colour, what they are doing).
  ///   - topic: Where.
  /// - Returns: The entry's reference, for ``untrack(_:)``.
  /// - Throws: ``PubSubError/invalidTopic(_:)`` for a bad topic or key, ``PubSubError/tooLarge(bytes:limit:)``,
  ///   ``PubSubError/encoding(_:)``, ``PubSubError/notRunning``, ``PubSubError/transport(_:)``.
  @discardableResult
  public func track<Meta>(
    _ key: String, meta: Meta, on topic: PresenceTopic<Meta>
  ) async throws(PubSubError) -> PresenceReference {
    guard Names.isValid(topic.name) else { throw .invalidTopic(topic.name) }
    guard Names.isValid(key) else { throw .invalidTopic(key) }
    let metaText: String
    do {
      metaText = try Self.encode(meta)
    } catch {
      throw .encoding(String(describing: error))
    }
    // The join is queued under the lock that numbered it: joins and leaves leave this node in
    // the order of their versions, so another node sees no gap that is not one.
    let (ref, sending) = try state.withLock {
      state throws(PubSubError) -> (String, Sending) in
      guard state.phase == .running else { throw PubSubError.notRunning }
      let ref = "\(node).\(state.nextID)"
      // The join as it is sent, the metadata escaped inside it: its size is checked, not the
      // metadata's, before anything is tracked.
      let planned = PresenceWire.Join(
        v: state.presence.ownVersion &+ 1, t: topic.name, r: ref, k: key, m: metaText)
      guard let body = PresenceWire.encode(planned) else {
        throw PubSubError.encoding("presence entry")
      }
      try checkSize(body, topic: topic.name)
      let item = PresenceItem(topic: topic.name, ref: ref, key: key, meta: metaText, node: node)
      state.nextID += 1
      let (changes, _) = state.presence.track(item)
      Self.deliver(changes, in: state)
      return (ref, queue(.join, topic: topic.name, body: body))
    }
    if let error = await sending.answer() { throw error }
    return PresenceReference(topic: topic.name, ref: ref)
  }

  /// Ends a tracking: its entry leaves on every node. Untracking twice does nothing.
  ///
  /// - Parameter reference: What ``track(_:meta:on:)`` returned.
  public func untrack(_ reference: PresenceReference) async {
    let sending = state.withLock { state -> Sending? in
      guard state.phase == .running, let (changes, leave) = state.presence.untrack(reference.ref)
      else { return nil }
      Self.deliver(changes, in: state)
      return PresenceWire.encode(leave).map { queue(.leave, topic: reference.topic, body: $0) }
    }
    _ = await sending?.answer()
  }

  /// Who is on `topic` now, over every node this node hears from, by key.
  ///
  /// - Parameter topic: The presence topic.
  /// - Returns: The entries, by key then by reference; an entry whose metadata does not decode
  ///   as `Meta` is left out.
  public func present<Meta>(on topic: PresenceTopic<Meta>) -> [PresenceEntry<Meta>] {
    state.withLock { Self.entries($0.presence.items(on: topic.name), as: Meta.self) }
  }

  /// Who is on `topic`: first everyone there now (all of them as joins), then each change,
  /// with the whole list after it and the entries that joined and left.
  ///
  /// - Parameter topic: The presence topic.
  /// - Returns: The updates; the stream ends when the subscriber stops iterating or the node
  ///   shuts down.
  public func presenceUpdates<Meta>(on topic: PresenceTopic<Meta>) -> AsyncStream<
    PresenceUpdate<Meta>
  > {
    let (stream, continuation) = AsyncStream<PresenceUpdate<Meta>>.makeStream(
      bufferingPolicy: .unbounded)
    let id = state.withLock { state -> Int? in
      guard state.phase != .stopped, Names.isValid(topic.name) else { return nil }
      let id = state.nextID
      state.nextID += 1
      let now = Self.entries(state.presence.items(on: topic.name), as: Meta.self)
      continuation.yield(PresenceUpdate(present: now, joins: now, leaves: []))
      state.presenceSubscribers[topic.name, default: [:]][id] = Subscriber(
        deliver: { items, changes in
          continuation.yield(
            PresenceUpdate(
              present: Self.entries(items, as: Meta.self),
              joins: Self.entries(changes.joins[topic.name] ?? [], as: Meta.self),
              leaves: Self.entries(changes.leaves[topic.name] ?? [], as: Meta.self)))
        },
        finish: { continuation.finish() })
      return id
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      self?.later { Self.unsubscribe(id, from: topic.name, in: &$0.presenceSubscribers) }
    }
    return stream
  }

  // MARK: Inside

  private func receive(_ payload: String) {
    guard let envelope = Envelope(decoding: payload) else {
      dropped.add(1, ordering: .relaxed)
      return
    }
    guard envelope.node != node else { return }
    switch envelope.kind {
    case .message:
      let subscribers = state.withLock { state in
        state.messageSubscribers[envelope.topic].map { $0.values.map(\.deliver) } ?? []
      }
      for deliver in subscribers { deliver(envelope.body) }
    case .syncRequest:
      guard envelope.body.isEmpty || envelope.body == node else { return }
      // The asking node also learns this node is alive from the state.
      // Queued under the lock that read the state: no join or leave of a later version goes
      // out ahead of it.
      state.withLock { state in
        for part in state.presence.ownState(maximumBytes: maximumPayloadBytes) {
          enqueue(.state, topic: "", body: part)
        }
      }
    case .join, .leave, .heartbeat, .state, .goodbye:
      let (ask, malformed) = state.withLock { state -> (Bool, Bool) in
        let (changes, ask, malformed) = state.presence.receive(
          envelope, now: .now, syncSpacing: presenceTiming.heartbeat)
        Self.deliver(changes, in: state)
        return (ask, malformed)
      }
      if malformed { dropped.add(1, ordering: .relaxed) }
      if ask { enqueue(.syncRequest, topic: "", body: envelope.node) }
    }
  }

  private func beat() {
    state.withLock { state in
      guard state.phase == .running else { return }
      let changes = state.presence.expire(now: .now, timeout: presenceTiming.timeout)
      Self.deliver(changes, in: state)
      // Under the lock: the version it names is the newest queued, never one a join queued
      // meanwhile has passed.
      enqueue(.heartbeat, topic: "", body: String(state.presence.ownVersion))
    }
  }

  /// Tells the presence subscribers of each changed topic, under the state's lock, so that
  /// every subscriber sees the updates in the order they happened.
  private static func deliver(_ changes: PresenceChanges, in state: State) {
    guard !changes.isEmpty else { return }
    for topic in changes.topics {
      guard let subscribers = state.presenceSubscribers[topic] else { continue }
      let items = state.presence.items(on: topic)
      for subscriber in subscribers.values { subscriber.deliver((items, changes)) }
    }
  }

  private var maximumPayloadBytes: Int {
    transport.maximumPayloadBytes
  }

  private func checkSize(_ body: String, topic: String) throws(PubSubError) {
    // The envelope adds its kind, this node's id and the topic's name.
    let overhead = 8 + node.utf8.count + topic.utf8.count
    let limit = min(limits.maximumMessageBytes, maximumPayloadBytes - overhead)
    let bytes = body.utf8.count
    guard bytes <= limit else { throw .tooLarge(bytes: bytes, limit: max(0, limit)) }
  }

  /// Queues a payload no one waits on (called under the state's lock where its order with
  /// the presence versions matters).
  private func enqueue(_ kind: Envelope.Kind, topic: String, body: String) {
    let envelope = Envelope(kind: kind, node: node, topic: topic, body: body)
    outbox.yield(Outgoing(payload: envelope.encoded, done: nil))
  }

  /// A payload queued for the transport, and its answer to come.
  private struct Sending {
    let answers: AsyncStream<PubSubError?>

    /// What the transport answered: `nil` once sent, or why it was not.
    func answer() async -> PubSubError? {
      for await answer in answers { return answer }
      return .notRunning
    }
  }

  /// Queues a payload behind what this node has already queued. Called while holding the
  /// state's lock, after checking the node runs: what the lock orders (versions, the goodbye
  /// after every payload) is the order the transport sends in.
  private func queue(_ kind: Envelope.Kind, topic: String, body: String) -> Sending {
    let envelope = Envelope(kind: kind, node: node, topic: topic, body: body)
    let (answers, answer) = AsyncStream.makeStream(
      of: PubSubError?.self, bufferingPolicy: .bufferingNewest(1))
    let result = outbox.yield(
      Outgoing(payload: envelope.encoded, done: { answer.yield($0) }))
    if case .enqueued = result {} else { answer.yield(.notRunning) }
    return Sending(answers: answers)
  }

  /// Runs `change` under the state's lock, from a task of its own. A stream's end runs its
  /// handler while the runtime holds the ending task's lock, and a delivery under the state's
  /// lock may be waiting for that very lock to hand the task its element: taking the state's
  /// lock there would deadlock the two.
  private func later(_ change: @escaping @Sendable (inout State) -> Void) {
    Task { [weak self] in self?.state.withLock(change) }
  }

  private static func unsubscribe<Input>(
    _ id: Int, from topic: String, in table: inout [String: [Int: Subscriber<Input>]]
  ) {
    table[topic]?[id] = nil
    if table[topic]?.isEmpty == true { table[topic] = nil }
  }

  private static func spend(
    _ buckets: inout [String: Bucket], publisher: String, limits: PubSubLimits
  ) throws(PubSubError) {
    let now = ContinuousClock.now
    let capacity = Double(limits.burst)
    var bucket = buckets[publisher] ?? Bucket(tokens: capacity, refilled: now)
    let elapsed = bucket.refilled.duration(to: now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    bucket.tokens = min(capacity, bucket.tokens + seconds * limits.messagesPerSecond)
    bucket.refilled = now
    guard bucket.tokens >= 1 else {
      buckets[publisher] = bucket
      throw .rateLimited(publisher: publisher)
    }
    bucket.tokens -= 1
    buckets[publisher] = bucket
    // Publishers that have refilled to the full burst cost nothing to forget.
    if buckets.count > 10_000 {
      buckets = buckets.filter { _, bucket in
        let idle = bucket.refilled.duration(to: now)
        let refill = Double(idle.components.seconds) * limits.messagesPerSecond
        return bucket.tokens + refill < capacity
      }
    }
  }

  private static func entries<Meta: Decodable>(
    _ items: [PresenceItem], as type: Meta.Type
  ) -> [PresenceEntry<Meta>] {
    items.compactMap { item in
      guard let meta = try? decode(Meta.self, from: item.meta) else { return nil }
      return PresenceEntry(id: item.ref, key: item.key, meta: meta, node: item.node)
    }
  }

  private static func encode<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  private static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
    try JSONDecoder().decode(type, from: Data(text.utf8))
  }

  private static func randomNodeID() -> String {
    var generator = SystemRandomNumberGenerator()
    let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    return String((0..<12).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
  }
}

/// What ``PubSub/track(_:meta:on:)`` returns: the entry to untrack.
public struct PresenceReference: Hashable, Sendable {
  /// The presence topic's name.
  public let topic: String
  /// The entry's id, unique over every node.
  public let ref: String
}

/// One entry on a presence topic.
public struct PresenceEntry<Meta: Sendable>: Sendable, Identifiable {
  /// The entry's reference, unique over every node: one key tracked twice has two entries.
  public let id: String
  /// Who it is.
  public let key: String
  /// What was tracked with it.
  public let meta: Meta
  /// The node that tracked it.
  public let node: String
}

extension PresenceEntry: Equatable where Meta: Equatable {}

/// A presence topic after a change: everyone there, and who joined and left.
public struct PresenceUpdate<Meta: Sendable>: Sendable {
  /// Everyone on the topic, by key then by reference.
  public let present: [PresenceEntry<Meta>]
  /// The entries that joined in this change (everyone, in a subscription's first update).
  public let joins: [PresenceEntry<Meta>]
  /// The entries that left in this change.
  public let leaves: [PresenceEntry<Meta>]
}

extension PresenceUpdate: Equatable where Meta: Equatable {}

import Synchronization
import Tether

/// What carries a ``PubSub`` node's payloads to every other node: a bus in this process
/// (``InProcessPubSub``) or a database's notifications (`PostgresPubSubTransport`, in
/// TetherPubSubPostgres under the `PostgresPubSub` trait).
///
/// A transport broadcasts: every payload one node sends reaches each other connected node, in
/// the order that node sent them. It need not deliver a node's payloads back to itself (the
/// node ignores its own).
public protocol PubSubTransport: Sendable {
  /// The most UTF-8 bytes one payload may take on this transport.
  var maximumPayloadBytes: Int { get }

  /// Starts delivering the other nodes' payloads to `receive`, and returns once it does.
  ///
  /// - Parameter receive: Called with each payload, in order per sending node; it returns at
  ///   once (the node queues what it must do).
  /// - Throws: ``PubSubError/transport(_:)`` when the transport cannot be reached.
  func connect(_ receive: @escaping @Sendable (String) -> Void) async throws(PubSubError)

  /// Sends `payload` to every other node.
  ///
  /// - Parameter payload: At most ``maximumPayloadBytes`` bytes.
  /// - Throws: ``PubSubError/transport(_:)`` when it could not be sent.
  func send(_ payload: String) async throws(PubSubError)

  /// Stops sending and delivering.
  func disconnect() async
}

/// A bus joining the ``PubSub`` nodes of one process: the transport for a single server, and
/// for tests of several nodes without a database.
///
/// ```swift
/// let bus = InProcessPubSub()
/// let pubsub = PubSub(transport: bus.transport())
/// try await pubsub.start()
/// ```
public final class InProcessPubSub: Sendable {
  private struct Receiver {
    let id: Int
    let receive: @Sendable (String) -> Void
  }

  private let receivers = Locked<[Receiver]>([])
  private let nextID = Atomic<Int>(0)

  /// Creates an empty bus.
  public init() {}

  /// A transport for one more node on this bus.
  ///
  /// - Parameter maximumPayloadBytes: What one payload may carry (64 KiB unless set).
  /// - Returns: The node's transport, not yet connected.
  public func transport(maximumPayloadBytes: Int = 65_536) -> Transport {
    Transport(
      bus: self, id: nextID.add(1, ordering: .relaxed).newValue,
      maximumPayloadBytes: max(64, maximumPayloadBytes))
  }

  /// How many nodes are connected.
  public var connectedCount: Int { receivers.withLock { $0.count } }

  fileprivate func attach(_ id: Int, _ receive: @escaping @Sendable (String) -> Void) {
    receivers.withLock { $0.append(Receiver(id: id, receive: receive)) }
  }

  fileprivate func detach(_ id: Int) {
    receivers.withLock { $0.removeAll { $0.id == id } }
  }

  fileprivate func broadcast(_ payload: String, from id: Int) {
    // Receivers are called outside the lock: one may send in turn.
    let targets = receivers.withLock { $0 }
    guard targets.contains(where: { $0.id == id }) else { return }
    for target in targets where target.id != id { target.receive(payload) }
  }

  /// One node's end of an ``InProcessPubSub``.
  public final class Transport: PubSubTransport {
    private let bus: InProcessPubSub
    private let id: Int
    /// The most UTF-8 bytes one payload may take on this bus.
    public let maximumPayloadBytes: Int

    fileprivate init(bus: InProcessPubSub, id: Int, maximumPayloadBytes: Int) {
      self.bus = bus
      self.id = id
      self.maximumPayloadBytes = maximumPayloadBytes
    }

    /// Joins the bus: `receive` gets every other node's payloads from now on.
    public func connect(_ receive: @escaping @Sendable (String) -> Void) async throws(PubSubError) {
      bus.attach(id, receive)
    }

    /// Delivers `payload` to every other node on the bus, before it returns.
    public func send(_ payload: String) async throws(PubSubError) {
      guard payload.utf8.count <= maximumPayloadBytes else {
        throw .tooLarge(bytes: payload.utf8.count, limit: maximumPayloadBytes)
      }
      bus.broadcast(payload, from: id)
    }

    /// Leaves the bus.
    public func disconnect() async {
      bus.detach(id)
    }

    /// Cuts this node off the bus as a crash would: from now on it reaches no one and hears no
    /// one, and says goodbye to no one. The other nodes see its presences leave once it has
    /// been silent for their ``PresenceTiming/timeout``.
    public func sever() {
      bus.detach(id)
    }
  }
}

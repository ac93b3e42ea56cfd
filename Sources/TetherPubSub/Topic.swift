/// A named channel of typed messages: a list's changes, a room's chat, a board's moves.
///
/// Every node that publishes or subscribes to a topic of the same name must agree on its
/// message type; a message that does not decode as it is dropped and counted, never delivered
/// half-read (see ``PubSub/droppedMessages``).
///
/// ```swift
/// struct ChatLine: Codable, Sendable { var author: String; var text: String }
/// let room = Topic<ChatLine>("chat.lobby")
/// ```
public struct Topic<Message: Codable & Sendable>: Hashable, Sendable, CustomStringConvertible {
  /// The topic's name, shared by every node.
  public let name: String

  /// Names a topic. A name is 1 to ``PubSub/maximumTopicBytes`` bytes of UTF-8 without control
  /// characters; ``PubSub`` refuses any other with ``PubSubError/invalidTopic(_:)``.
  ///
  /// - Parameter name: The name, such as `"todos.list-42"`.
  public init(_ name: String) {
    self.name = name
  }

  /// The name.
  public var description: String { name }
}

/// A topic on which a node says who is here: each tracked entry has a key (a person, a tab) and
/// metadata, and leaves when it is untracked, when its node shuts down, or when its node stops
/// being heard from (see ``PresenceTiming``).
///
/// ```swift
/// struct Viewer: Codable, Sendable, Equatable { var name: String }
/// let viewers = PresenceTopic<Viewer>("todos.list-42.viewers")
/// ```
public struct PresenceTopic<Meta: Codable & Sendable & Equatable>: Hashable, Sendable,
  CustomStringConvertible
{
  /// The topic's name; it may equal a message topic's without sharing anything with it.
  public let name: String

  /// Names a presence topic (the same rule as ``Topic/init(_:)``).
  ///
  /// - Parameter name: The name.
  public init(_ name: String) {
    self.name = name
  }

  /// The name.
  public var description: String { name }
}

/// Why a publish, a track or a start was refused.
public enum PubSubError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The topic's name is empty, too long or holds a control character.
  case invalidTopic(String)
  /// The message, encoded, is larger than the limit (the smaller of ``PubSubLimits`` and the
  /// transport's own).
  case tooLarge(bytes: Int, limit: Int)
  /// The publisher has sent more than ``PubSubLimits`` allows lately; try again later.
  case rateLimited(publisher: String)
  /// The message could not be encoded.
  case encoding(String)
  /// The node is not started, or has shut down.
  case notRunning
  /// The transport failed; the text says why.
  case transport(String)

  /// The reason, in a sentence for a log.
  public var description: String {
    switch self {
    case .invalidTopic(let name): "invalid topic name \(String(reflecting: name))"
    case .tooLarge(let bytes, let limit): "message of \(bytes) bytes over the \(limit)-byte limit"
    case .rateLimited(let publisher): "publisher \(String(reflecting: publisher)) over its rate"
    case .encoding(let reason): "message could not be encoded: \(reason)"
    case .notRunning: "the PubSub node is not running"
    case .transport(let reason): "transport failed: \(reason)"
    }
  }
}

/// What one node accepts from its publishers.
public struct PubSubLimits: Sendable, Equatable {
  /// The most bytes a message (or a presence entry's metadata) may take, encoded as JSON.
  public var maximumMessageBytes: Int
  /// How many messages a publisher may send per second, on average.
  public var messagesPerSecond: Double
  /// How many messages a publisher may send at once after a quiet spell.
  public var burst: Int
  /// How many messages wait for a slow subscriber before the oldest waiting are dropped.
  public var subscriberBuffer: Int

  /// - Parameters:
  ///   - maximumMessageBytes: 4,000 unless set; PostgreSQL's `NOTIFY` carries under 8,000.
  ///   - messagesPerSecond: 20 unless set.
  ///   - burst: 40 unless set.
  ///   - subscriberBuffer: 256 unless set.
  public init(
    maximumMessageBytes: Int = 4_000, messagesPerSecond: Double = 20, burst: Int = 40,
    subscriberBuffer: Int = 256
  ) {
    self.maximumMessageBytes = max(1, maximumMessageBytes)
    self.messagesPerSecond = messagesPerSecond.isFinite ? max(0, messagesPerSecond) : 0
    self.burst = max(1, burst)
    self.subscriberBuffer = max(1, subscriberBuffer)
  }
}

/// How nodes tell each other they are alive, and how soon a silent node's presences leave.
public struct PresenceTiming: Sendable, Equatable {
  /// How often a node says it is alive.
  public var heartbeat: Duration
  /// How long a node may stay silent before its presences leave on every other node. A dead
  /// node's entries leave within `timeout` plus one `heartbeat` of its last heartbeat.
  public var timeout: Duration

  /// - Parameters:
  ///   - heartbeat: 2 seconds unless set.
  ///   - timeout: 6 seconds unless set; at least two heartbeats.
  public init(heartbeat: Duration = .seconds(2), timeout: Duration = .seconds(6)) {
    self.heartbeat = max(heartbeat, .milliseconds(1))
    self.timeout = max(timeout, self.heartbeat * 2)
  }
}

import Foundation

/// One payload on a transport: `T1`, then the kind, the sending node, the topic and the body,
/// separated by U+001F (which no node id, topic name or JSON text holds raw).
struct Envelope: Equatable {
  enum Kind: Character {
    /// An app's message on a topic; the body is its JSON.
    case message = "m"
    /// A presence entry tracked; the body is a ``PresenceWire/Join``.
    case join = "j"
    /// A presence entry untracked; the body is a ``PresenceWire/Leave``.
    case leave = "l"
    /// The node is alive; the body is its presence version.
    case heartbeat = "h"
    /// A request for every node's (or one node's) presences; the body is the node asked, or
    /// empty for all.
    case syncRequest = "q"
    /// One part of a node's presences; the body is a ``PresenceWire/State``.
    case state = "s"
    /// The node is shutting down: its presences leave now.
    case goodbye = "x"
  }

  static let separator: Character = "\u{1F}"
  static let prefix = "T1"

  var kind: Kind
  var node: String
  var topic: String
  var body: String

  var encoded: String {
    let separator = String(Self.separator)
    return [Self.prefix, String(kind.rawValue), node, topic, body].joined(separator: separator)
  }

  /// Reads a payload; `nil` for anything not written by ``encoded`` (another program on a
  /// shared channel, a newer wire version).
  init?(decoding payload: String) {
    let fields = payload.split(
      separator: Self.separator, maxSplits: 4, omittingEmptySubsequences: false)
    guard fields.count == 5, fields[0] == Self.prefix, fields[1].count == 1,
      let kindCharacter = fields[1].first, let kind = Kind(rawValue: kindCharacter),
      !fields[2].isEmpty
    else { return nil }
    self.init(
      kind: kind, node: String(fields[2]), topic: String(fields[3]), body: String(fields[4]))
  }

  init(kind: Kind, node: String, topic: String, body: String) {
    self.kind = kind
    self.node = node
    self.topic = topic
    self.body = body
  }
}

/// The bodies of the presence kinds.
enum PresenceWire {
  struct Join: Codable {
    /// The sender's presence version after this change.
    var v: UInt64
    var t: String
    var r: String
    var k: String
    var m: String
  }

  struct Leave: Codable {
    var v: UInt64
    var t: String
    var r: String
  }

  struct Entry: Codable {
    var t: String
    var r: String
    var k: String
    var m: String
  }

  /// Part `p` of `n` of a node's presences at version `v`.
  struct State: Codable {
    var v: UInt64
    var p: Int
    var n: Int
    var e: [Entry]
  }

  static func encode<T: Encodable>(_ value: T) -> String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  static func decode<T: Decodable>(_ type: T.Type, from text: String) -> T? {
    try? JSONDecoder().decode(type, from: Data(text.utf8))
  }
}

/// Topic names and presence keys: 1 to 200 bytes of UTF-8, no control characters.
enum Names {
  static let maximumBytes = 200

  static func isValid(_ name: String) -> Bool {
    let count = name.utf8.count
    guard count > 0, count <= maximumBytes else { return false }
    return !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }
}

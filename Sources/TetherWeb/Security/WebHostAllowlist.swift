/// The host names a server answers to: a request whose `Host` names another is refused, so a
/// page on another site cannot reach a server on this machine by pointing its own name at
/// 127.0.0.1 (DNS rebinding: the browser then sends that name, and the same-origin check on
/// the socket would pass, since `Origin` names it too).
///
/// Ports are not compared: a load balancer in front of a node on another port is the same
/// host.
///
/// ```swift
/// let local = WebHostAllowlist(binding: "127.0.0.1").allows("localhost:8080")  // true
/// let other = WebHostAllowlist(binding: "127.0.0.1").allows("attacker.example")  // false
/// let named = WebHostAllowlist(["todo.example.com"]).allows("todo.example.com:443")  // true
/// ```
public struct WebHostAllowlist: Equatable, Sendable {
  /// The allowed host names, lowercased, without a port (an IPv6 address without brackets).
  public var names: Set<String>

  /// Allows exactly `names` (a port in a name is ignored).
  ///
  /// - Parameter names: Host names or addresses, such as `todo.example.com` or `10.0.0.5`.
  public init(_ names: some Sequence<String>) {
    self.names = Set(names.compactMap { Self.hostName(in: $0) })
  }

  /// The names a server bound to `host` is reached by: for a loopback address, every loopback
  /// name (`127.0.0.1`, `localhost`, `::1`); else `host` itself. A server bound to every
  /// address (`0.0.0.0`, `::`) is reached by names this cannot know: give them with
  /// ``init(_:)``; until then it answers loopback names only.
  ///
  /// - Parameter host: The address the server listens on.
  public init(binding host: String) {
    let name = Self.hostName(in: host) ?? host
    let loopback: Set<String> = ["127.0.0.1", "localhost", "::1"]
    if loopback.contains(name) || name.hasPrefix("127.") || name == "0.0.0.0" || name == "::" {
      names = loopback.union([name]).subtracting(["0.0.0.0", "::"])
    } else {
      names = [name]
    }
  }

  /// Whether a request whose `Host` header (or HTTP/2 `:authority`) is `authority` is allowed.
  ///
  /// A request with no `Host` at all (HTTP/1.0, a load balancer's health check) is allowed: a
  /// browser always sends one, so it is not a page of another site reaching this server.
  ///
  /// - Parameter authority: `name`, `name:port`, `[v6]` or `[v6]:port`, or `nil`.
  /// - Returns: Whether its name is one of ``names``.
  public func allows(_ authority: String?) -> Bool {
    guard let authority else { return true }
    guard let name = Self.hostName(in: authority) else { return false }
    return names.contains(name)
  }

  /// The host name of an authority, lowercased, without its port or brackets; `nil` when it
  /// is empty or malformed.
  static func hostName(in authority: String) -> String? {
    let text = authority.lowercased()
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      let address = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard !address.isEmpty, rest.isEmpty || isPort(rest.dropFirst()) && rest.first == ":"
      else { return nil }
      return String(address)
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    switch parts.count {
    case 1: break
    case 2: guard isPort(parts[1]) else { return nil }
    default: return text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } ? text : nil
    }
    let name = parts[0]
    guard !name.isEmpty,
      name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") })
    else { return nil }
    return String(name)
  }

  private static func isPort(_ text: Substring) -> Bool {
    !text.isEmpty && text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber }
  }
}

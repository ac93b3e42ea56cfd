import Foundation
import TetherWeb

/// The id of the session a page belongs to (its script's `data-session`).
public func sessionID(inPage html: String) -> String? {
  guard let start = html.range(of: "data-session=\"") else { return nil }
  let rest = html[start.upperBound...]
  guard let end = rest.firstIndex(of: "\"") else { return nil }
  return String(rest[..<end])
}

/// The id of the first element of `html` whose class list is exactly `className` (ids come
/// first in every tag the library writes).
public func elementID(withClass className: String, inPage html: String) -> String? {
  guard let found = html.range(of: "class=\"\(className)\"") else { return nil }
  let before = html[..<found.lowerBound]
  guard let start = before.range(of: " id=\"", options: .backwards) else { return nil }
  let rest = html[start.upperBound...]
  guard let end = rest.firstIndex(of: "\"") else { return nil }
  return String(rest[..<end])
}

/// Opens a page and its session's socket, as a browser tab does.
public func openSession(port: Int) throws -> Connection {
  try OpenedPage(port: port).socket
}

/// A page as a browser tab opens it: `GET path`, then its session's socket, whose first
/// message is the page's hello: the session's secret and its resume token (through a balancer
/// the socket may reach another node).
public struct OpenedPage {
  /// The page's HTML.
  public let html: String
  /// Its session's id.
  public let sessionID: String
  /// Its session's secret, sent in the hello.
  public let secret: String
  /// The resume token it was served with, if any.
  public let token: String?
  /// Its socket, the hello sent.
  public let socket: Connection
  /// The browser's cookie (`name=value`): the one it came with, or the one the page issued;
  /// its page's token opens its session only with it.
  public let cookie: String?
  /// The loopback address the browser connects from (`nil`: 127.0.0.1): its reconnects come
  /// from it too, as a browser's would.
  public let source: String?

  /// - Parameters:
  ///   - port: The server's (or the balancer's) port.
  ///   - path: The page's path.
  ///   - cookie: The browser's `Cookie` header, if it has one.
  /// - Throws: ``ConnectionError`` when the page or the socket cannot be had.
  public init(port: Int, path: String = "/", cookie: String? = nil) throws {
    let source = LoadSources.next()
    let (status, head, html) = try Connection(port: port, from: source).getWithHead(
      path, port: port, cookie: cookie)
    guard status == 200, let id = LoopbackClient.sessionID(inPage: html),
      let secret = scriptAttribute("data-secret", inPage: html)
    else {
      throw ConnectionError.unexpectedStatus(request: "GET \(path)", status: status, body: "")
    }
    self.html = html
    sessionID = id
    self.secret = secret
    token = resumeToken(inPage: html)
    let browserCookie = cookie ?? cookiePair(setIn: head)
    self.cookie = browserCookie
    self.source = source
    socket = try Connection(port: port, from: source)
    try socket.upgrade("/ws?session=\(id)", port: port, cookie: browserCookie)
    try socket.sendText(ClientMessage.hello(secret: secret, token: token).json)
  }
}

/// The cookie a response's head sets (`name=value`, as a `Cookie` header sends it back).
public func cookiePair(setIn head: String) -> String? {
  for line in head.split(separator: "\r\n") {
    let parts = line.split(separator: ":", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "set-cookie" else { continue }
    return parts[1].split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
  }
  return nil
}

/// The value of the page script's attribute `name`, such as `data-secret`.
public func scriptAttribute(_ name: String, inPage html: String) -> String? {
  guard let start = html.range(of: "\(name)=\"") else { return nil }
  let rest = html[start.upperBound...]
  guard let end = rest.firstIndex(of: "\"") else { return nil }
  return String(rest[..<end])
}

/// The resume token a page was served with (its script's `data-resume`), if any.
public func resumeToken(inPage html: String) -> String? {
  guard let start = html.range(of: "data-resume=\"") else { return nil }
  let rest = html[start.upperBound...]
  guard let end = rest.firstIndex(of: "\"") else { return nil }
  return String(rest[..<end])
}

#if WebServer
  import HTTPTypes
  import Hummingbird
  import HummingbirdCore
  import Logging
  import NIOCore
  import NIOHTTP1
  import NIOHTTPTypes
  import NIOHTTPTypesHTTP1
  import NIOWebSocket
  import TetherWeb

  /// What a page's socket needs to know of the server: the sessions, who may connect, how fast
  /// a page may send, and how often an idle socket is pinged. One for the server, shared by
  /// every socket's handler (a class: a copy in each handler cost every open socket a few
  /// hundred bytes).
  final class SessionSocketSettings: Sendable {
    /// The path the socket is opened at.
    static let path = "/ws"

    let registry: WebSessionRegistry
    let allowedHosts: WebHostAllowlist
    let trustedProxies: Set<String>
    let messageRate: WebMessageRate?
    /// The rules and deadlines of every socket (`SocketCore.Limits`): its hello, its ping
    /// interval, its close handshake, what frames that are not messages may cost.
    let socketLimits: SocketCore.Limits
    let logger: Logger

    init(
      registry: WebSessionRegistry, allowedHosts: WebHostAllowlist, trustedProxies: Set<String>,
      messageRate: WebMessageRate?, socketLimits: SocketCore.Limits, logger: Logger
    ) {
      self.registry = registry
      self.allowedHosts = allowedHosts
      self.trustedProxies = trustedProxies
      self.messageRate = messageRate
      self.socketLimits = socketLimits
      self.logger = logger
    }

    /// Whether `head` opens a page's socket that may connect: the socket's path, a host this
    /// server answers to, and an `Origin` of that host (a page elsewhere cannot drive a
    /// session, nor one whose name was pointed at this machine).
    func accepts(_ head: HTTPRequestHead) -> Bool {
      let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
      let host = head.headers.first(name: "host")
      return path == Self.path
        && TetherWebServer.isSameOrigin(origin: head.headers.first(name: "origin"), host: host)
        && allowedHosts.allows(host)
    }

    /// The session, browser and address the socket's request names.
    func request(_ head: HTTPRequestHead, peer: String?) -> SessionSocketRequest {
      let query = URI(head.uri).queryParameters
      let cookie = head.headers["cookie"]
      let secure = TetherWebServer.isSecure(
        peer: peer, forwardedProto: head.headers["x-forwarded-proto"],
        trustedProxies: trustedProxies)
      return SessionSocketRequest(
        id: query["session"].map(String.init) ?? "",
        resync: query["resync"] != nil,
        client: registry.clientCookies.client(
          inCookieHeader: cookie.isEmpty ? nil : cookie.joined(separator: "; "), secure: secure)
          ?? WebClient(),
        address: WebConnectionLimits.clientAddress(
          peer: peer, forwardedFor: head.headers["x-forwarded-for"],
          trustedProxies: trustedProxies))
    }
  }

  /// The session a socket asks for, and who asks.
  struct SessionSocketRequest: Sendable {
    let id: String
    /// Whether the page may be older than the session's last render.
    let resync: Bool
    /// The browser, as the upgrade request's cookie names it.
    let client: WebClient
    /// The browser's address (a trusted proxy's `X-Forwarded-For`, else the peer's).
    let address: String?
  }
#endif

#if WebServer
  import Hummingbird
  import HummingbirdCore
  import Foundation
  import Logging
  import NIOCore
  import NIOHTTP1
  import NIOHTTPTypes
  import Synchronization
  import TetherWeb

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// What connections may cost a `TetherWebServer`, so that one client cannot exhaust it: the
  /// server closes a connection that is slow to say what it wants, and refuses connections
  /// beyond what it can hold with a `503` before its file descriptors run out. Pass them as
  /// `limits:` to `TetherWebServer.run`; the defaults suit a server behind a proxy.
  public struct WebConnectionLimits: Sendable, Equatable {
    /// How long a new connection has to send its first whole request head. A connection that
    /// sends nothing, or a head a byte at a time (slowloris), is answered `408` and closed.
    /// A later request on a kept-alive connection falls under ``idleTimeout``.
    public var headerTimeout: Duration
    /// How long a kept-alive HTTP connection may wait between requests (a later request's
    /// head included) before it is closed. A page's socket is not HTTP: it is pinged every
    /// 30 s and closed when it stops answering.
    public var idleTimeout: Duration
    /// The most connections open at once; beyond it a connection is answered `503` with
    /// `Retry-After` and closed. `nil`: half the process's descriptor limit (`ulimit -n`), at
    /// most 4,096 — the other half is left for files, databases and the connections being
    /// refused.
    public var maximumConnections: Int?
    /// The most connections open at once from one address, or `nil` for no such limit (the
    /// default): behind a proxy every client has the proxy's address, and the proxy is where
    /// one client's connections are limited. Set it when browsers connect directly.
    public var maximumConnectionsPerAddress: Int?
    /// The addresses of proxies whose `X-Forwarded-For` is believed: a page load through one
    /// counts against the address the proxy names (its last entry), not the proxy's. Anyone
    /// else's `X-Forwarded-For` is ignored. Empty by default.
    public var trustedProxies: Set<String>
    /// How fast one page's socket's messages are handled, if limited: by default
    /// `WebMessageRate()`, 100 messages at once, then 50 a second — far beyond a person
    /// typing or clicking. A message past the budget waits in its socket's `WebInbox` until
    /// the budget has room, so one socket's flood cannot take the main actor from the other
    /// sessions; `nil` handles every message as soon as it comes.
    public var messageRate: WebMessageRate?

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - headerTimeout: How long a new connection has to send its first request head.
    ///   - idleTimeout: How long a kept-alive connection may wait between requests.
    ///   - maximumConnections: The most connections at once; `nil` for half the descriptor
    ///     limit, at most 4,096.
    ///   - maximumConnectionsPerAddress: The most connections at once from one address;
    ///     `nil` for none.
    ///   - trustedProxies: The proxies whose `X-Forwarded-For` is believed.
    ///   - messageRate: How fast one page's socket may send.
    public init(
      headerTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(30),
      maximumConnections: Int? = nil, maximumConnectionsPerAddress: Int? = nil,
      trustedProxies: Set<String> = [], messageRate: WebMessageRate? = WebMessageRate()
    ) {
      self.messageRate = messageRate
      self.headerTimeout = headerTimeout
      self.idleTimeout = idleTimeout
      self.maximumConnections = maximumConnections
      self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
      self.trustedProxies = trustedProxies
    }

    /// The address a request comes from: its connection's peer, or, when the peer is a
    /// trusted proxy, the last address in the `X-Forwarded-For` the proxy appended. `nil`
    /// for a request that did not come through ``TetherWebServer``'s own connections.
    func clientAddress(of request: Request) -> String? {
      Self.clientAddress(of: request, trustedProxies: trustedProxies)
    }

    /// The address a request comes from, believing only `trustedProxies`' `X-Forwarded-For`.
    static func clientAddress(of request: Request, trustedProxies: Set<String>) -> String? {
      guard let field = PeerAddress.field, let name = HTTPFields.Element.Name("X-Forwarded-For")
      else { return nil }
      return clientAddress(
        peer: request.headers[field], forwardedFor: request.headers[values: name],
        trustedProxies: trustedProxies)
    }

    /// ``clientAddress(of:trustedProxies:)`` of a request's peer and its `X-Forwarded-For`
    /// fields.
    static func clientAddress(
      peer: String?, forwardedFor: [String], trustedProxies: Set<String>
    ) -> String? {
      guard let peer else { return nil }
      guard trustedProxies.contains(peer),
        let forwarded = forwardedFor.last?.split(separator: ",").last
      else { return peer }
      let address = forwarded.trimmingCharacters(in: .whitespaces)
      return address.isEmpty ? peer : address
    }

    /// The most connections this process holds at once: ``maximumConnections``, or half its
    /// descriptor limit (at most 4,096) when that is `nil`; never below 1.
    public var connectionCap: Int {
      if let maximumConnections { return max(1, maximumConnections) }
      guard let descriptors = Self.descriptorLimit() else { return 1_024 }
      return max(1, min(4_096, descriptors / 2))
    }

    /// The process's soft limit on open file descriptors, or `nil` if it has none or it
    /// cannot be read.
    static func descriptorLimit() -> Int? {
      var limit = rlimit()
      #if canImport(Darwin)
        let read = getrlimit(RLIMIT_NOFILE, &limit)
      #elseif canImport(Musl)
        let read = getrlimit(RLIMIT_NOFILE, &limit)
      #else
        let read = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
      #endif
      // No limit (RLIM_INFINITY) is all ones.
      guard read == 0, limit.rlim_cur != rlim_t.max else { return nil }
      return Int(clamping: limit.rlim_cur)
    }
  }

  /// The header that carries a request's peer address from the connection to the routes:
  /// its name ends in 64 random bits drawn at start, so a client cannot send one, and every
  /// request's is replaced by ``PeerAddressHandler``.
  enum PeerAddress {
    static let field: HTTPFields.Element.Name? = {
      var generator = SystemRandomNumberGenerator()
      return HTTPFields.Element.Name("tether-peer-" + String(generator.next() as UInt64, radix: 16))
    }()
  }

  /// Writes each request head's peer address into ``PeerAddress/field``, dropping any the
  /// client sent.
  final class PeerAddressHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard case .head(var head) = unwrapInboundIn(data), let field = PeerAddress.field else {
        context.fireChannelRead(data)
        return
      }
      head.headerFields[field] = nil
      if let address = context.channel.remoteAddress?.ipAddress {
        head.headerFields[field] = address
      }
      context.fireChannelRead(wrapInboundOut(.head(head)))
    }
  }
#endif

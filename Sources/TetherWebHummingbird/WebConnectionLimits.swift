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

  /// Counts the connections open, in all and per address, and admits or refuses a new one.
  final class ConnectionGate: Sendable {
    let cap: Int
    let perAddress: Int?
    private let logger: Logger
    private struct State {
      var open = 0
      var byAddress: [String: Int] = [:]
      var refused = 0
      var lastLogged: ContinuousClock.Instant?
    }
    private let state = Mutex(State())

    init(limits: WebConnectionLimits, logger: Logger) {
      cap = limits.connectionCap
      perAddress = limits.maximumConnectionsPerAddress
      self.logger = logger
    }

    /// Counts a connection from `address` in, or refuses it (logged at most once a second).
    func admit(_ address: String?) -> Bool {
      let (admitted, log): (Bool, String?) = state.withLock { state in
        let fromAddress = address.map { state.byAddress[$0, default: 0] } ?? 0
        if state.open < cap, perAddress.map({ fromAddress < $0 }) ?? true {
          state.open += 1
          if let address { state.byAddress[address] = fromAddress + 1 }
          return (true, nil)
        }
        state.refused += 1
        let now = ContinuousClock.now
        guard state.lastLogged.map({ now - $0 >= .seconds(1) }) ?? true else { return (false, nil) }
        state.lastLogged = now
        let reason =
          state.open >= cap
          ? "\(state.open) connections open, the most it holds"
          : "\(fromAddress) open from its address, the most one address may hold"
        return (false, "refused a connection: \(reason) (\(state.refused) refused so far)")
      }
      if let log { logger.notice("\(log)") }
      return admitted
    }

    /// Counts an admitted connection from `address` out.
    func release(_ address: String?) {
      state.withLock { state in
        state.open -= 1
        guard let address, let count = state.byAddress[address] else { return }
        state.byAddress[address] = count > 1 ? count - 1 : nil
      }
    }

    /// The connections open now.
    var open: Int { state.withLock { $0.open } }
  }

  /// A server child channel that puts the gate and the header deadline in front of `base`.
  struct GuardedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let gate: ConnectionGate
    let headerTimeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
      let address = channel.remoteAddress?.ipAddress
      do {
        if gate.admit(address) {
          channel.closeFuture.whenComplete { [gate] _ in gate.release(address) }
          try channel.pipeline.syncOperations.addHandler(
            RequestHeadDeadline(timeout: TimeAmount(headerTimeout)), position: .first)
        } else {
          try channel.pipeline.syncOperations.addHandler(RefusedConnection(), position: .first)
        }
      } catch {
        channel.close(promise: nil)
        return channel.eventLoop.makeFailedFuture(error)
      }
      return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
      await base.handle(value: value, logger: logger)
    }
  }

  /// Closes a connection, answered `408`, unless its first request head is parsed within the
  /// timeout: ``RequestHeadCheck`` removes it then, and it costs nothing more. A blank line is
  /// not enough: a head that does not parse is answered `400` by that check, and one that never
  /// ends a valid head is cut here.
  final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    private var done = false
    private var received = false

    init(timeout: TimeAmount) {
      self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
      if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
      arm(context)
      context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      received = true
      context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
      done = true
      timer?.cancel()
      timer = nil
    }

    /// The server is shutting down. A connection that has sent nothing (a browser opens one
    /// ahead of a request it may never make) has nothing to finish: it is closed now. Until
    /// its first request's head, no HTTP handler is there to close it, and the shutdown would
    /// wait for the header deadline.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
      if event is ChannelShouldQuiesceEvent, !done, !received {
        done = true
        timer?.cancel()
        timer = nil
        context.close(promise: nil)
        return
      }
      context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
      timer?.cancel()
      timer = nil
      context.fireChannelInactive()
    }

    private func arm(_ context: ChannelHandlerContext) {
      guard timer == nil, !done else { return }
      timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
        guard !done else { return }
        done = true
        let answer =
          "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        context.writeAndFlush(
          wrapOutboundOut(context.channel.allocator.buffer(string: answer)), promise: nil)
        context.close(promise: nil)
      }
    }
  }

  /// Checks a connection's first request head before anything acts on it, then leaves the
  /// pipeline (with the ``RequestHeadDeadline``: the head arrived in time):
  /// - a head that does not parse (a bad request line, a NUL in a field, both `Content-Length`
  ///   and `Transfer-Encoding`) is answered `400` and the connection closed;
  /// - an HTTP/1.1 head without `Host`, or any head with two, is answered `400` (HTTP/1.0
  ///   may omit it: a load balancer's health check does);
  /// - a WebSocket upgrade without exactly one well-formed `Sec-WebSocket-Key` is answered `400`,
  ///   and one of another version `426` naming version 13, instead of being dropped unanswered.
  /// Any other `Upgrade` (`h2c`, `TLS/1.0`) is not spoken here, and the request is served as
  /// plain HTTP/1.1 (RFC 9110 §7.8 lets a server ignore it).
  final class RequestHeadCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private var answered = false
    private var passed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard !answered else {
        // Until it leaves, what follows a passed head (its body) passes too; what follows a
        // refused one is dropped.
        if passed { context.fireChannelRead(data) }
        return
      }
      guard case .head(let head) = unwrapInboundIn(data) else {
        context.fireChannelRead(data)
        return
      }
      if let (status, extra) = Self.refusal(of: head) {
        answer(context, status: status, headers: extra)
        return
      }
      var data = data
      if !head.headers[canonicalForm: "upgrade"].isEmpty,
        !head.headers[canonicalForm: "upgrade"].contains(where: { $0.lowercased() == "websocket" })
      {
        // A protocol this server does not speak: the request is served as plain HTTP/1.1, as
        // if it had not asked (the upgrade handler would otherwise drop the head).
        var plain = head
        plain.headers.remove(name: "upgrade")
        data = wrapInboundOut(.head(plain))
      }
      // A valid head, in time: the deadline and this check are done (once the head is on its
      // way: a removed handler's context passes nothing on).
      answered = true
      passed = true
      context.fireChannelRead(data)
      let operations = context.pipeline.syncOperations
      if let deadline = try? operations.handler(type: RequestHeadDeadline.self) {
        operations.removeHandler(deadline, promise: nil)
      }
      operations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
      if error is HTTPParserError, !answered {
        answer(context, status: .badRequest, headers: [])
        return
      }
      context.fireErrorCaught(error)
    }

    /// Why `head` is refused before it is routed, if it is: the status and any headers the
    /// answer carries.
    static func refusal(of head: HTTPRequestHead) -> (HTTPResponseStatus, [(String, String)])? {
      // HTTP/1.1 requires exactly one host (RFC 9112 §3.2); HTTP/1.0 may omit it (a load
      // balancer's health check does), but not repeat it.
      let hosts = head.headers["host"]
      let needsHost = head.version.major > 1 || head.version.minor >= 1
      guard hosts.count <= 1, !needsHost || hosts.first.map({ !$0.isEmpty }) == true else {
        return (.badRequest, [])
      }
      let upgrades = head.headers[canonicalForm: "upgrade"]
      guard upgrades.contains(where: { $0.lowercased() == "websocket" }) else { return nil }
      let keys = head.headers["sec-websocket-key"]
      let versions = head.headers[canonicalForm: "sec-websocket-version"]
      guard versions.count == 1, versions.first == "13" else {
        return (.upgradeRequired, [("Sec-WebSocket-Version", "13")])
      }
      // The key is 16 bytes in base64: 24 characters, the last two `==`.
      guard keys.count == 1, let key = keys.first, key.utf8.count == 24, key.hasSuffix("==")
      else { return (.badRequest, []) }
      return nil
    }

    private func answer(
      _ context: ChannelHandlerContext, status: HTTPResponseStatus,
      headers extra: [(String, String)]
    ) {
      answered = true
      var headers = HTTPHeaders([("Connection", "close"), ("Content-Length", "0")])
      for (name, value) in extra { headers.add(name: name, value: value) }
      context.write(
        wrapOutboundOut(
          .head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
        promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
        context.close(promise: nil)
      }
    }
  }

  /// Answers `503` with `Retry-After` at once, reads and drops what the client sends, and
  /// closes: a connection beyond the limits.
  final class RefusedConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private var answered = false

    func handlerAdded(context: ChannelHandlerContext) {
      if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
      refuse(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func refuse(_ context: ChannelHandlerContext) {
      guard !answered else { return }
      answered = true
      let body = "This server is busy; try again in a few seconds."
      let answer =
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\n"
        + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        + body
      context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: answer)))
        .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
  }
#endif

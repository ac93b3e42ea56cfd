#if WebServer
  import Hummingbird
  import HummingbirdCore
  import HummingbirdWebSocket
  import Logging
  import NIOCore
  import ServiceLifecycle
  import Synchronization
  import TetherFlow
  import TetherWeb

  /// Serves a `WebApp` to browsers with Hummingbird: a page for every path, the
  /// client script and style, `/health`, and the WebSocket each page talks to its session over.
  ///
  /// ```swift
  /// let app = WebApp(title: "Counter", rootFlow: { CounterFlow() }) { screen in
  ///   // …
  /// }
  /// try await TetherWebServer.run(app, port: 8080) { port in
  ///   print("http://127.0.0.1:\(port)")
  /// }
  /// ```
  ///
  /// What it does for every app:
  /// - **Pages**: each path is opened as a deep link in a new session; its page is served
  ///   once the screens' first loads have landed, or after `appearanceWait` with their
  ///   spinners. A path that names no screen gets 404. By default the session is closed once
  ///   the page is drawn, and the page's socket rebuilds it from the signed token the page
  ///   carries (`WebSessionRegistry.FirstRender`): a page nobody connects to holds nothing.
  /// - **Sessions** live in a `WebSessionRegistry`: at most `capacity` at once (a
  ///   page beyond gets 503), each kept `gracePeriod` after its socket closes so a reload or a
  ///   dropped connection resumes it.
  /// - **The socket** at `/ws` accepts only pages of this server's own origin, and closes a
  ///   frame larger than ``maximumMessageSize`` before reading it whole. It is served on
  ///   SwiftNIO's event loop, not by a task: an idle socket holds its channel, its queues and
  ///   one timer (a ping after 30 s of silence; a page that does not answer is closed), and
  ///   each burst of messages hops once to the sessions and once back. Its first message
  ///   must show the session's secret (the page's hello, never in a URL), or it gets nothing;
  ///   with a `WebResumeSigner` the hello also carries the page's newest token, and a session
  ///   another server held is rebuilt here. One socket per session: a newer one closes the
  ///   older. Every message is numbered, and none is dropped.
  /// - **Every answer** carries ``securityHeaders``; a request for a host the server does not
  ///   answer to gets 421.
  /// - **Stopping**: on SIGTERM or SIGINT (``run(_:host:port:capacity:gracePeriod:appearanceWait:resumeSigner:allowedHosts:limits:logger:onRunning:routes:)``)
  ///   the server stops accepting, closes every socket (1001, going away; a page that is
  ///   still open reconnects), closes every session and returns.
  ///
  /// The app's own routes (`routes:`) are HTTP: this server upgrades only its pages' sockets,
  /// and answers any other WebSocket request 403. An app with WebSockets of its own mounts
  /// ``TetherWebRoutes`` in its own Hummingbird server instead.
  ///
  /// Available with the package trait `WebServer`; without it this module is empty and
  /// Hummingbird is not resolved.
  public enum TetherWebServer {
    /// The largest message a page may send over its socket: the session's own limit
    /// (`ClientMessage.maximumSize`), enforced on the frame.
    public static let maximumMessageSize = ClientMessage.maximumSize

    /// The path of the client script every page loads.
    public static let scriptPath = "/tether.js"
    /// The path of the style sheet every page loads.
    public static let stylePath = "/tether.css"
    /// The path of the app's own style sheet (`WebApp.stylesheet`), when it has one.
    public static let appStylePath = "/app.css"

    /// Serves `app` until SIGTERM or SIGINT, then stops gracefully and returns.
    ///
    /// - Parameters:
    ///   - app: The app each browser tab gets a session of.
    ///   - host: The address to listen on; loopback by default.
    ///   - port: The port; 0 picks a free one (given to `onRunning`).
    ///   - capacity: The most sessions open at once.
    ///   - gracePeriod: How long a session outlives its page's socket.
    ///   - appearanceWait: How long a new page waits for its screens' first loads before it is
    ///     served with their spinners; `.zero` serves at once.
    ///   - resumeSigner: The signer servers behind one load balancer share, if any.
    ///   - allowedHosts: The host names requests may name; `nil` for the names of `host`
    ///     (`WebHostAllowlist(binding:)`). A request for another gets 421.
    ///   - limits: What connections may cost: the header and idle timeouts, the connection
    ///     caps (``WebConnectionLimits``).
    ///   - logger: Where refused messages and socket errors are logged.
    ///   - onRunning: Called with the port once the server listens (the trailing closure).
    ///   - routes: Adds the app's own routes (images, an API) before the page fallback.
    /// - Throws: What the server threw: the port is taken, or the address cannot be bound.
    @MainActor
    public static func run(
      _ app: WebApp, host: String = "127.0.0.1", port: Int, capacity: Int = 500,
      gracePeriod: Duration = .seconds(30), appearanceWait: Duration = .seconds(1),
      resumeSigner: WebResumeSigner? = nil, allowedHosts: WebHostAllowlist? = nil,
      limits: WebConnectionLimits = WebConnectionLimits(),
      logger: Logger = Logger(label: "tether-web"),
      onRunning: @escaping @Sendable (Int) async -> Void = { _ in },
      routes: (Router<BasicWebSocketRequestContext>) -> Void = { _ in }
    ) async throws {
      let registry = WebSessionRegistry(
        app: app, capacity: capacity, gracePeriod: gracePeriod, appearanceWait: appearanceWait,
        resumeSigner: resumeSigner)
      try await run(
        registry: registry, host: host, port: port, allowedHosts: allowedHosts, limits: limits,
        logger: logger,
        onRunning: onRunning, routes: routes)
    }

    /// Serves the sessions of `registry` until SIGTERM or SIGINT, then stops gracefully,
    /// closes every session and returns: for a server that reads the registry itself (say,
    /// for a `/stats` route).
    ///
    /// - Parameters:
    ///   - registry: The sessions.
    ///   - host: The address to listen on.
    ///   - port: The port; 0 picks a free one.
    ///   - allowedHosts: The host names requests may name; `nil` for the names of `host`.
    ///   - limits: What connections may cost: timeouts and caps.
    ///   - logger: Where refused messages and socket errors are logged.
    ///   - onRunning: Called with the port once the server listens.
    ///   - routes: Adds the app's own routes before the page fallback.
    /// - Throws: What the server threw.
    @MainActor
    public static func run(
      registry: WebSessionRegistry, host: String = "127.0.0.1", port: Int,
      allowedHosts: WebHostAllowlist? = nil, limits: WebConnectionLimits = WebConnectionLimits(),
      logger: Logger = Logger(label: "tether-web"),
      onRunning: @escaping @Sendable (Int) async -> Void = { _ in },
      routes: (Router<BasicWebSocketRequestContext>) -> Void = { _ in }
    ) async throws {
      let application = makeApplication(
        registry: registry, host: host, port: port, allowedHosts: allowedHosts, limits: limits,
        logger: logger,
        onRunning: onRunning, routes: routes)
      let group = ServiceGroup(
        services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
      try await group.run()
      registry.closeAll()
    }

    /// The application, for a caller that runs it in a service group of its own.
    ///
    /// - Parameters:
    ///   - registry: The sessions.
    ///   - host: The address to listen on.
    ///   - port: The port; 0 picks a free one.
    ///   - allowedHosts: The host names requests may name; `nil` for the names of `host`.
    ///   - serverName: The `Server` header.
    ///   - limits: What connections may cost: timeouts and caps.
    ///   - logger: Where refused messages and socket errors are logged.
    ///   - onRunning: Called with the port once the server listens.
    ///   - routes: Adds the app's own routes before the page fallback.
    /// - Returns: The application.
    public static func makeApplication(
      registry: WebSessionRegistry, host: String, port: Int,
      allowedHosts: WebHostAllowlist? = nil, serverName: String = "tether-web",
      limits: WebConnectionLimits = WebConnectionLimits(), logger: Logger,
      onRunning: @escaping @Sendable (Int) async -> Void = { _ in },
      routes: (Router<BasicWebSocketRequestContext>) -> Void = { _ in }
    ) -> some ApplicationProtocol {
      let router = Router(context: BasicWebSocketRequestContext.self)
      addRoutes(
        to: router, registry: registry,
        allowedHosts: allowedHosts ?? WebHostAllowlist(binding: host),
        trustedProxies: limits.trustedProxies, messageRate: limits.messageRate, logger: logger,
        routes: routes)
      let gate = ConnectionGate(limits: limits, logger: logger)
      let sockets = SessionSocketSettings(
        registry: registry, allowedHosts: allowedHosts ?? WebHostAllowlist(binding: host),
        trustedProxies: limits.trustedProxies, messageRate: limits.messageRate,
        socketLimits: SocketCore.Limits(maximumMessageSize: maximumMessageSize), logger: logger)
      // Pages, assets, `/health` and the app's routes are the router's; a page's socket is
      // upgraded and served on the event loop (`SessionSocketHandler`), with no task per socket.
      let server = HTTPServerBuilder { responder in
        GuardedChildChannel(
          base: TetherServerChannel(
            responder: responder,
            http1: .init(
              additionalChannelHandlers: [PeerAddressHandler()],
              idleTimeout: TimeAmount(limits.idleTimeout)),
            sockets: sockets),
          gate: gate, headerTimeout: limits.headerTimeout)
      }
      return Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname(host, port: port), serverName: serverName),
        onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
        logger: logger)
    }

    /// Adds Tether's routes to `router`: `GET /tether.js`, `/tether.css`, `/health`, the
    /// socket at `/ws`, then `routes`, then a page for every other path (404 for a path no
    /// screen shows, 503 when full). Every answer, the app's routes' included, carries
    /// ``securityHeaders``; a request for a host `allowedHosts` does not name gets 421.
    ///
    /// To mount Tether in an app of your own (its own request context, its middleware, under a
    /// path prefix), use ``TetherWebRoutes`` instead.
    ///
    /// - Parameters:
    ///   - router: The router.
    ///   - registry: The sessions.
    ///   - allowedHosts: The host names requests may name.
    ///   - trustedProxies: The proxies whose `X-Forwarded-For` names the client (see
    ///     ``WebConnectionLimits/trustedProxies``).
    ///   - messageRate: How fast one page's socket's messages are handled (by default 100 at
    ///     once, then 50 a second); `nil` for as fast as they come.
    ///   - logger: Where refused messages and socket errors are logged.
    ///   - routes: The app's own routes.
    public static func addRoutes(
      to router: Router<BasicWebSocketRequestContext>, registry: WebSessionRegistry,
      allowedHosts: WebHostAllowlist = WebHostAllowlist(binding: "127.0.0.1"),
      trustedProxies: Set<String> = [], messageRate: WebMessageRate? = WebMessageRate(),
      logger: Logger,
      routes: (Router<BasicWebSocketRequestContext>) -> Void = { _ in }
    ) {
      // At the root, the headers and the host check cover the whole router: the app's own
      // routes and the router's 404 too.
      router.add(middleware: SecurityMiddleware(allowedHosts: allowedHosts))
      let tether = TetherWebRoutes<BasicWebSocketRequestContext>(
        registry: registry, allowedHosts: allowedHosts, trustedProxies: trustedProxies,
        messageRate: messageRate, logger: logger)
      tether.addFixedRoutes(to: router)
      routes(router)
      tether.addPageRoutes(to: router)
    }

    static func headOnly(type: String, cache: String = "no-cache") -> Response {
      Response(status: .ok, headers: [.contentType: type, .cacheControl: cache])
    }

    /// The headers every answer carries: a content security policy that runs no script but
    /// this server's own (the client a page carries, allowed by its hash, and `/tether.js`; no
    /// other inline script, no `eval`), connects only to this server and lets
    /// no other site frame the page; no MIME sniffing; no `Referer` sent elsewhere (a page's
    /// address can name a session's screen).
    ///
    /// Styles may be inline (views draw with `style` elements and attributes); images may come
    /// from any `http(s)` address (an app's data names them).
    public static let securityHeaders: HTTPFields = {
      var fields: HTTPFields = [
        .contentSecurityPolicy:
          "default-src 'self'; script-src 'self' \(WebAssets.scriptSourceHash); "
          + "style-src 'self' 'unsafe-inline'; "
          + "img-src 'self' data: http: https:; connect-src 'self'; object-src 'none'; "
          + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
      ]
      // Older browsers honour X-Frame-Options where they ignore frame-ancestors.
      for (name, value) in [("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer")] {
        if let name = HTTPFields.Element.Name(name) { fields[name] = value }
      }
      return fields
    }()

    /// The close code for a socket whose page fell behind (it stopped reading while messages
    /// piled up): the page reconnects and is sent the whole app again.
    public static let fellBehindCloseCode: UInt16 = 4408

    /// The close code for a refused resume: 4403 for a token that is not good (forged,
    /// altered, expired, another session's or another browser's: the page loads its URL anew), 4404 when this
    /// server cannot resume at all or the path is gone, 4503 when it is full and 4429 when the
    /// browser or its address holds as many sessions as it may (the page retries).
    ///
    /// - Parameter refusal: Why the registry refused the token.
    /// - Returns: The WebSocket close code.
    public static func closeCode(for refusal: WebResumeError) -> UInt16 {
      switch refusal {
      case .malformed, .badSignature, .expired, .otherSession, .otherClient: 4403
      case .notEnabled, .unknownPath: 4404
      case .full: 4503
      case .overBudget: 4429
      }
    }

    /// Whether the page reached the browser over TLS: the request came through one of
    /// `trustedProxies` whose `X-Forwarded-Proto` says `https` (this server speaks plain HTTP
    /// itself). Cookies are then `Secure`, under the `__Host-` name.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - trustedProxies: The proxies whose forwarding headers are believed.
    /// - Returns: Whether the browser's connection is TLS.
    public static func isSecure(_ request: Request, trustedProxies: Set<String>) -> Bool {
      guard let name = HTTPFields.Element.Name("X-Forwarded-Proto") else { return false }
      return isSecure(
        peer: PeerAddress.field.flatMap { request.headers[$0] },
        forwardedProto: request.headers[values: name], trustedProxies: trustedProxies)
    }

    /// ``isSecure(_:trustedProxies:)`` of a request's peer and its `X-Forwarded-Proto` fields.
    static func isSecure(
      peer: String?, forwardedProto: [String], trustedProxies: Set<String>
    ) -> Bool {
      guard let peer, trustedProxies.contains(peer),
        let proto = forwardedProto.last?.split(separator: ",").last
      else { return false }
      return proto.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }

    /// Whether the request's `Origin` is the host it was sent to: the socket's check that a
    /// page of this server, not one elsewhere, is connecting.
    ///
    /// - Parameter request: The upgrade request.
    /// - Returns: Whether `Origin` is `http://` or `https://` and the request's host.
    public static func isSameOrigin(_ request: Request) -> Bool {
      isSameOrigin(origin: request.headers[.origin], host: request.head.authority)
    }

    /// Whether `origin` is `http://` or `https://` and `host`.
    static func isSameOrigin(origin: String?, host: String?) -> Bool {
      guard let origin, let host else { return false }
      return origin == "http://\(host)" || origin == "https://\(host)"
    }

    static func asset(_ text: String, type: String) -> Response {
      Response(
        status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func page(
      _ html: String, status: HTTPResponse.Status, setCookie: String? = nil
    ) -> Response {
      var headers: HTTPFields = [
        .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
      ]
      if let setCookie { headers[.setCookie] = setCookie }
      return Response(
        status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
  }

  extension SendQueue {
    /// The writer of a socket served by Hummingbird's WebSocket route: writes what waits, in
    /// order, until nothing does. A failed write closes the queue (the socket's inbound loop
    /// sees the socket end).
    func write(to outbound: WebSocketOutboundWriter) async {
      while let batch = next() {
        for message in batch {
          do {
            try await outbound.write(.text(message))
          } catch {
            close()
            return
          }
          guard written(bytes: message.utf8.count) else { return }
        }
      }
    }
  }

  /// Logs one socket's refused messages without letting the socket flood the log: the first
  /// ``burst`` in full, then one a second; at the end, how many there were and how many were
  /// not logged. Each line is one line (the refusal's text escapes what the client sent).
  final class RefusalLog: Sendable {
    static let burst = 10
    let logger: Logger
    private struct Counts {
      var count = 0
      var unlogged = 0
      var lastLogged: ContinuousClock.Instant?
    }
    private let counts = Mutex(Counts())

    init(logger: Logger) {
      self.logger = logger
    }

    func refused(_ reason: String) {
      let now = ContinuousClock.now
      let logs = counts.withLock { counts in
        counts.count += 1
        if counts.count <= Self.burst || counts.lastLogged.map({ now - $0 >= .seconds(1) }) ?? true
        {
          counts.lastLogged = now
          return true
        }
        counts.unlogged += 1
        return false
      }
      if logs { logger.notice("session refused a message: \(reason)") }
    }

    func finish() {
      let (count, unlogged) = counts.withLock { ($0.count, $0.unlogged) }
      guard unlogged > 0 else { return }
      logger.notice(
        "session socket ended after \(count) refused messages (\(unlogged) not logged)")
    }
  }

  /// Refuses a request for a host the server does not answer to (421), and adds
  /// ``TetherWebServer/securityHeaders`` to every answer.
  struct SecurityMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowedHosts: WebHostAllowlist

    func handle(
      _ request: Request, context: Context,
      next: (Request, Context) async throws -> Response
    ) async throws -> Response {
      var response: Response
      if allowedHosts.allows(request.head.authority) {
        do {
          response = try await next(request, context)
        } catch let error as any HTTPResponseError {
          // A route's error (no route for a path: 404) gets the headers too.
          response = try error.response(from: request, context: context)
        }
      } else {
        response = Response(
          status: .misdirectedRequest,
          headers: [.contentType: "text/plain; charset=utf-8"],
          body: ResponseBody(
            byteBuffer: ByteBuffer(string: "This server does not answer to that host name.\n")))
      }
      for field in TetherWebServer.securityHeaders { response.headers[field.name] = field.value }
      return response
    }
  }

  /// One page's socket: resumes or finds its session, attaches, routes messages both ways,
  /// detaches.
  struct SocketSession: Sendable {
    let registry: WebSessionRegistry
    let id: String
    let resync: Bool
    /// The browser, as the upgrade request's cookie names it.
    let client: WebClient
    /// The browser's address (a trusted proxy's `X-Forwarded-For`, else the peer's).
    let address: String?
    /// How fast the page may send, if limited (``WebConnectionLimits/messageRate``).
    let messageRate: WebMessageRate?
    /// The rules of the socket (`SocketCore.Limits`): its hello's deadline, its message size,
    /// what frames that are not messages may cost.
    let socketLimits: SocketCore.Limits
    let logger: Logger

    /// Serves one page's socket through Hummingbird's WebSocket route: its data frames go
    /// through the page socket's ``SocketCore`` (the rules the event-loop handler keeps too:
    /// fragments, UTF-8, size, the budget, the hello), and what it says is done here.
    /// Hummingbird's WebSocket handler answers pings and closes itself, so the core's pongs
    /// and pings are its.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
      var core = SocketCore(limits: socketLimits, at: .now)
      // A socket that says nothing, or nothing in time, gets nothing.
      let silence = Task {
        try await Task.sleep(for: socketLimits.helloTimeout)
        try await outbound.close(
          .unknown(SocketCore.CloseCode.noProof), reason: "no proof of the session")
      }
      defer { silence.cancel() }
      var frames = inbound.makeAsyncIterator()
      var open: OpenSocket?
      let refusals = RefusalLog(logger: logger)
      do {
        reading: while let frame = try await frames.next() {
          let opcode: UInt8 =
            switch frame.opcode {
            case .text: SocketCore.Opcode.text
            case .binary: SocketCore.Opcode.binary
            case .continuation: SocketCore.Opcode.continuation
            }
          var actions = core.received(
            SocketCore.Frame(
              fin: frame.fin, opcode: opcode, payload: Array(frame.data.readableBytesView)),
            at: .now)
          while !actions.isEmpty {
            let action = actions.removeFirst()
            switch action {
            case .checkHello(let text):
              silence.cancel()
              switch await attach(hello: text, outbound: outbound) {
              case .refused(let code, let reason):
                actions += core.close(code: code, reason: reason, at: .now)
              case .attached(let connection, let queue):
                open = OpenSocket(
                  connection: connection, queue: queue, inbox: WebInbox(rate: messageRate),
                  refresher: refresher(connection))
                actions += core.helloChecked(at: .now)
              }
            case .deliver(let text):
              guard let open else { continue }
              switch open.inbox.admit(text) {
              case .startHandler:
                Self.handle(
                  open.inbox, registry: registry, id: id, connection: open.connection,
                  address: address, refusals: refusals)
              case .queued:
                break
              case .refused(let error):
                refusals.refused(error?.description ?? "the socket is closing")
                actions += core.refused(bytes: text.utf8.count, at: .now)
                continue
              }
              if open.inbox.isFull { await open.inbox.waitForRoom() }
              // A socket far past its rate is read no faster than it.
              let pause = open.inbox.pauseBeforeReading()
              if pause > .zero { try await Task.sleep(for: pause) }
            case .writeClose(let code, let reason):
              try? await outbound.close(code.map { .unknown($0) } ?? .normalClosure, reason: reason)
            case .stopSending:
              open?.queue.close()
              if core.closedHere { open?.inbox.close() }
            case .stopReading, .closeConnection:
              break reading
            case .writePong, .writePing:
              break
            }
          }
        }
      } catch {
        logger.notice("session socket ended: \(WebLogText.escaped("\(error)", limit: 200))")
      }
      guard let open else { return }
      // What the page sent before its socket ended is still its own: its numbered gestures are
      // handled, then counted, and only then is the session detached.
      open.inbox.socketEnded()
      await open.inbox.drained()
      refusals.finish()
      open.refresher?.cancel()
      open.queue.close()
      await registry.detach(id, connection: open.connection)
    }

    /// A socket attached to its session.
    private struct OpenSocket {
      let connection: Int
      let queue: SendQueue
      let inbox: WebInbox
      let refresher: Task<Void, Never>?
    }

    /// A page that stays on one screen is sent a fresh token in time: its newest one must
    /// still be accepted wherever it reconnects.
    private func refresher(_ connection: Int) -> Task<Void, Never>? {
      guard let lifetime = registry.resumeSigner?.maximumAge else { return nil }
      return Task { [registry, id] in
        while (try? await Task.sleep(for: lifetime / 3)) != nil {
          await registry.refreshResumeToken(id, connection: connection)
        }
      }
    }

    /// What the hello of a socket on Hummingbird's route got.
    private enum RouteAttachment {
      case attached(Int, SendQueue)
      case refused(code: UInt16, reason: String)
    }

    /// Checks the page's hello and attaches the socket to its session. Messages wait in a
    /// `SendQueue` for the socket's writer, a task that lives while there is something to
    /// write (an idle socket keeps none); a page that falls behind is closed with 4408 and
    /// reconnects for a full redraw.
    private func attach(hello text: String, outbound: WebSocketOutboundWriter) async
      -> RouteAttachment
    {
      let queue = SendQueue()
      let outcome = await Self.attach(
        hello: text, id: id, resync: resync, client: client, address: address,
        registry: registry, logger: logger,
        send: { text in
          switch queue.admit(text) {
          case .startWriter:
            Task { await queue.write(to: outbound) }
          case .queued, .closed:
            break
          case .overflowed:
            Task {
              try? await outbound.close(
                .unknown(TetherWebServer.fellBehindCloseCode),
                reason: "fell behind: reconnect for a full redraw")
            }
          }
        },
        close: {
          // One socket per session: a newer one of the same page (its secret) took over.
          Task {
            try? await outbound.close(
              .unknown(WebSessionRegistry.replacedCloseCode), reason: "replaced by a newer socket")
          }
        })
      switch outcome {
      case .attached(let connection): return .attached(connection, queue)
      case .refused(let code, let reason): return .refused(code: code, reason: reason)
      }
    }

    /// What a page's hello got: its socket attached to its session as a connection, or
    /// refused with a close code and its reason.
    enum Attachment: Sendable {
      case attached(Int)
      case refused(code: UInt16, reason: String)
    }

    /// Checks a page's hello and attaches its socket to its session: the check both of the
    /// server's socket paths make (Hummingbird's WebSocket route and the server's own socket on
    /// the event loop).
    ///
    /// A page's first message proves the socket is its session's: the session's secret, which
    /// no URL carries, and with a resume key the page's newest token (the session may live on
    /// another server, on one that died, or be here but behind the page).
    ///
    /// - Parameters:
    ///   - text: The socket's first message.
    ///   - id: The session the socket's request names.
    ///   - resync: Whether the page may be older than the session's last render.
    ///   - client: The browser, as the request's cookie names it.
    ///   - address: The browser's address.
    ///   - registry: The sessions.
    ///   - logger: Where refusals are logged.
    ///   - send: Sends one message to the page.
    ///   - close: Closes the socket when a newer one replaces it.
    /// - Returns: The connection, or why the socket was refused.
    @MainActor
    static func attach(
      hello text: String, id: String, resync: Bool, client: WebClient, address: String?,
      registry: WebSessionRegistry, logger: Logger, send: @escaping (String) -> Void,
      close: @escaping @Sendable () -> Void
    ) async -> Attachment {
      // A hello may rebuild the session and render its page in full: a turn of its address's.
      let turns = SessionTurns.shared
      let turn = await turns.turn(for: address, waitingForShare: false)
      defer { turns.end(turn) }
      var resync = resync
      guard case .hello(let secret, let token, let shown)? = try? ClientMessage(decoding: text)
      else {
        logger.notice("session socket refused: its first message was no hello")
        return .refused(code: 4403, reason: "no proof of the session")
      }
      if let token, registry.readsResumeTokens {
        switch await registry.resume(id, token: token, client: client, address: address) {
        case .held: break
        case .rebuilt: resync = true  // the page shows what another server last sent
        case .superseded:
          // The page is behind the session (or replays an old token): it is redrawn with
          // what the session shows, once its secret is checked below.
          logger.notice("session resume: a token older than the session; not rolled back")
          resync = true
        case .refused(let refusal):
          logger.notice("session resume refused: \(refusal)")
          return .refused(
            code: TetherWebServer.closeCode(for: refusal), reason: refusal.description)
        }
      }
      guard registry.contains(id) else { return .refused(code: 4404, reason: "no such session") }
      guard registry.claims(id, secret: secret, client: client) else {
        logger.notice("session socket refused: not the session's secret")
        return .refused(code: 4403, reason: "not this session's page")
      }
      guard
        let connection = registry.attach(
          id, resync: resync, shown: shown, send: send, close: close)
      else { return .refused(code: 4404, reason: "no such session") }
      return .attached(connection)
    }

    /// Hands the inbox's messages to the session, each no earlier than its rate allows and
    /// when its turn on the main actor comes (``SessionTurns``: its address's share, one
    /// message on the floor), until none is left; a message admitted later starts another such
    /// task. Every other session's work (a page load, a click) waits for one message at most.
    /// Once the socket has ended, only its numbered gestures are still handled
    /// (``WebInbox/keeps(_:)``), and only while its address has some of its share left.
    static func handle(
      _ inbox: WebInbox, registry: WebSessionRegistry, id: String, connection: Int,
      address: String?, refusals: RefusalLog
    ) {
      Task { @MainActor in
        let turns = SessionTurns.shared
        while let batch = inbox.next() {
          for entry in batch where inbox.keeps(entry) {
            // A person's last gestures before the tab closed are handled; a flood's leftovers,
            // once its address has spent its share, are no one's.
            if inbox.socketHasEnded, turns.wait(for: address) > .zero { continue }
            if entry.notBefore > .now { try? await Task.sleep(until: entry.notBefore) }
            let turn = await turns.turn(for: address)
            if let error = await registry.receive(id, connection: connection, entry.envelope) {
              refusals.refused(error.description)
            }
            turns.end(turn)
            await Task.yield()
          }
        }
      }
    }
  }
#endif

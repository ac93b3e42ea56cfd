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
  ///   frame larger than ``maximumFrameSize`` before reading it whole, and a text message
  ///   larger than ``maximumMessageSize``. It is served on
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

    /// The largest frame a page may send: an upload's chunk (16 KiB), which is also the
    /// largest Hummingbird's WebSocket route reads by default. A text message over
    /// ``maximumMessageSize`` in a frame up to this size is read, then refused by the
    /// socket's core.
    public static let maximumFrameSize = 16_384

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
        resumeSigner: resumeSigner, signing: .hmacSHA256)
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
#endif

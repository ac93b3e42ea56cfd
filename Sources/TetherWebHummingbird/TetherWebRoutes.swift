#if WebServer
  import Hummingbird
  import HummingbirdWebSocket
  import Logging
  import TetherWeb

  /// Tether's routes for a Hummingbird app of your own: its own request context (any
  /// `WebSocketRequestContext`), its own middleware before them, and an optional path prefix.
  ///
  /// ```swift
  /// let registry = WebSessionRegistry(app: counterApp, signing: .hmacSHA256)
  /// let router = Router(context: AppRequestContext.self)
  /// router.add(middleware: LogRequestsMiddleware(.info))
  /// router.get("api/ping") { _, _ in "pong" }
  /// TetherWebRoutes<AppRequestContext>(registry: registry, mountedAt: "/app", logger: logger)
  ///   .add(to: router)
  /// let app = Application(
  ///   router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
  ///   configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
  /// ```
  ///
  /// Under `/app` they are `GET /app/tether.js`, `/app/tether.css`, `/app/health`, the socket
  /// at `/app/ws`, and a page for `/app` and every path under it (the app's `/gallery` is
  /// `/app/gallery`; the page keeps its address under the prefix). Only these routes get
  /// ``TetherWebServer/securityHeaders`` and the host check (421 for a host `allowedHosts` does
  /// not name); the rest of the app is left as it is. The server must upgrade WebSockets
  /// through the same router (`.http1WebSocketUpgrade(webSocketRouter:)`). The registry signs
  /// its pages' tokens and browsers' cookies with `signing: .hmacSHA256` (swift-crypto);
  /// without it, it holds each page's session until its socket comes and names browsers by
  /// their id alone.
  ///
  /// What ``TetherWebServer/run(_:host:port:capacity:gracePeriod:appearanceWait:resumeSigner:allowedHosts:limits:logger:onRunning:routes:)``
  /// adds beyond the routes is its own: the connection limits (``WebConnectionLimits``) and
  /// the address each page load is counted against. Mounted in another server, page loads are
  /// not counted per address (the registry's capacity still holds), and the connection limits
  /// are that server's.
  public struct TetherWebRoutes<Context: WebSocketRequestContext>: Sendable {
    /// The sessions.
    public let registry: WebSessionRegistry
    /// The path the routes are under: `""` for the root, or `/app` (no trailing slash).
    public let prefix: String
    /// The host names requests may name.
    public let allowedHosts: WebHostAllowlist
    /// The proxies whose `X-Forwarded-For` names the client.
    public let trustedProxies: Set<String>
    /// How fast one page's socket may send; `nil` for no limit.
    public let messageRate: WebMessageRate?
    /// Where refused messages and socket errors are logged.
    public let logger: Logger

    /// Tether's routes over `registry`.
    ///
    /// - Parameters:
    ///   - registry: The sessions.
    ///   - prefix: The path to mount them at, such as `/app`; `""` (the default) for the root.
    ///     A trailing `/` is dropped, and a missing leading one added.
    ///   - allowedHosts: The host names requests may name (421 for another); loopback's by
    ///     default.
    ///   - trustedProxies: The proxies whose `X-Forwarded-For` names the client.
    ///   - messageRate: How fast one page's socket's messages are handled (`WebMessageRate`:
    ///     by default 100 at once, then 50 a second); `nil` for as fast as they come.
    ///   - logger: Where refused messages and socket errors are logged.
    public init(
      registry: WebSessionRegistry, mountedAt prefix: String = "",
      allowedHosts: WebHostAllowlist = WebHostAllowlist(binding: "127.0.0.1"),
      trustedProxies: Set<String> = [], messageRate: WebMessageRate? = WebMessageRate(),
      logger: Logger
    ) {
      self.registry = registry
      self.prefix = Self.normalized(prefix)
      self.allowedHosts = allowedHosts
      self.trustedProxies = trustedProxies
      self.messageRate = messageRate
      self.logger = logger
    }

    /// `/app` for `app`, `/app/` or `/app`; `""` for `""` or `/`.
    static func normalized(_ prefix: String) -> String {
      let parts = prefix.split(separator: "/", omittingEmptySubsequences: true)
      return parts.isEmpty ? "" : "/" + parts.joined(separator: "/")
    }

    /// Adds the routes to `router` under ``prefix``, with the security headers and the host
    /// check on them alone.
    ///
    /// - Parameter router: The app's router (or a route collection of it).
    public func add<Methods: RouterMethods>(to router: Methods)
    where Methods.Context == Context, Methods: _HB_SendableMetatype {
      let collection = RouteCollection(context: Context.self)
      collection.add(middleware: SecurityMiddleware<Context>(allowedHosts: allowedHosts))
      addFixedRoutes(to: collection, at: "")
      addPageRoutes(to: collection, at: "")
      router.addRoutes(collection, atPath: RouterPath(prefix.isEmpty ? "/" : prefix))
    }

    /// The assets, `/health` and the socket, at `path` (the prefix, or `""` inside a
    /// collection mounted at it).
    func addFixedRoutes<Methods: RouterMethods>(to router: Methods, at path: String = "")
    where Methods.Context == Context, Methods: _HB_SendableMetatype {
      let registry = registry
      let logger = logger
      let allowedHosts = allowedHosts
      let trustedProxies = trustedProxies
      let messageRate = messageRate
      router.get(RouterPath(path + "/health")) { _, _ in "ok" }
      // HEAD answers as GET would, with no body; a page's makes no session, so it says only
      // that pages are HTML, not whether a screen has the path.
      router.head(RouterPath(path + "/health")) { _, _ in
        TetherWebServer.headOnly(type: "text/plain; charset=utf-8")
      }
      router.head(RouterPath(path + TetherWebServer.scriptPath)) { _, _ in
        TetherWebServer.headOnly(type: "text/javascript; charset=utf-8")
      }
      router.head(RouterPath(path + TetherWebServer.stylePath)) { _, _ in
        TetherWebServer.headOnly(type: "text/css; charset=utf-8")
      }
      router.get(RouterPath(path + TetherWebServer.scriptPath)) { _, _ in
        TetherWebServer.asset(WebAssets.script, type: "text/javascript; charset=utf-8")
      }
      router.get(RouterPath(path + TetherWebServer.stylePath)) { _, _ in
        TetherWebServer.asset(WebAssets.style, type: "text/css; charset=utf-8")
      }
      if let appStylesheet = registry.appStylesheet {
        router.head(RouterPath(path + TetherWebServer.appStylePath)) { _, _ in
          TetherWebServer.headOnly(type: "text/css; charset=utf-8")
        }
        router.get(RouterPath(path + TetherWebServer.appStylePath)) { _, _ in
          TetherWebServer.asset(appStylesheet, type: "text/css; charset=utf-8")
        }
      }
      for hook in registry.hookScripts {
        router.head(RouterPath(path + hook.path)) { _, _ in
          TetherWebServer.headOnly(type: "text/javascript; charset=utf-8")
        }
        router.get(RouterPath(path + hook.path)) { _, _ in
          TetherWebServer.asset(hook.script, type: "text/javascript; charset=utf-8")
        }
      }
      router.ws(
        RouterPath(path + "/ws"),
        shouldUpgrade: { request, _ in
          // Only this server's own pages may connect: a page elsewhere cannot drive a session,
          // nor one whose name was pointed at this machine (its Origin matches its Host).
          TetherWebServer.isSameOrigin(request) && allowedHosts.allows(request.head.authority)
            ? .upgrade([:]) : .dontUpgrade
        },
        onUpgrade: { inbound, outbound, context in
          // The browser, as its cookie names it: a token rebuilds a session only for the
          // browser it was signed for.
          let secure = TetherWebServer.isSecure(context.request, trustedProxies: trustedProxies)
          let client =
            registry.clientCookies.client(
              inCookieHeader: context.request.headers[.cookie], secure: secure) ?? WebClient()
          let session = SocketSession(
            registry: registry,
            id: context.request.uri.queryParameters["session"].map(String.init) ?? "",
            resync: context.request.uri.queryParameters["resync"] != nil,
            client: client,
            address: WebConnectionLimits.clientAddress(
              of: context.request, trustedProxies: trustedProxies),
            messageRate: messageRate,
            socketLimits: SocketCore.Limits(maximumMessageSize: TetherWebServer.maximumMessageSize),
            logger: logger)
          // No shutdown handler of its own: Hummingbird's socket handler already closes the
          // socket when the server stops (1000), and a second handler per socket would be kept
          // by every idle session.
          try await session.run(inbound: inbound, outbound: outbound)
        })
    }

    /// A page for `path` and every path under it (after the app's own routes).
    func addPageRoutes<Methods: RouterMethods>(to router: Methods, at path: String = "")
    where Methods.Context == Context, Methods: _HB_SendableMetatype {
      let registry = registry
      let trustedProxies = trustedProxies
      let prefix = prefix
      let pageHandler: @Sendable (Request, Context) async -> Response = { request, _ in
        // The browser's id, from a cookie this server issued, or a new one the response gives
        // it: its own data (a list kept per browser) is found again on a reload and on any
        // server. An id the server never issued is never taken.
        let secure = TetherWebServer.isSecure(request, trustedProxies: trustedProxies)
        let cookies = registry.clientCookies
        let address = WebConnectionLimits.clientAddress(of: request, trustedProxies: trustedProxies)
        // A page's address is signed into its resume token, which its socket's hello carries:
        // a path longer than the server signs would make a page that can never connect.
        guard request.uri.path.utf8.count <= WebSessionRegistry.maximumPathLength else {
          return TetherWebServer.page(
            "<!doctype html><p>This address is too long.</p>", status: .uriTooLong)
        }
        // A browser without a cookie is issued one, whatever its address: the cookie costs the
        // server nothing (it is signed, not stored), and what one address may hold is bounded
        // by its sessions and each socket's bytes, not by how many browsers it has shown — a
        // campus or a carrier's NAT is one address.
        let client: WebClient
        var setCookie: String?
        if let known = cookies.client(inCookieHeader: request.headers[.cookie], secure: secure) {
          client = known
        } else {
          (client, setCookie) = cookies.issue(secure: secure)
        }
        // The app's path: what follows the prefix.
        let full = request.uri.path
        let appPath = full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
        let page = await SessionTurns.shared.inTurn(of: address) {
          await registry.page(
            for: appPath.isEmpty ? "/" : appPath, client: client, address: address, base: prefix)
        }
        switch page {
        case .page(let html, _):
          return TetherWebServer.page(html, status: .ok, setCookie: setCookie)
        case .notFound(let html):
          return TetherWebServer.page(html, status: .notFound)
        case .full:
          return TetherWebServer.page(
            "<!doctype html><p>This site is full; try again in a minute.</p>",
            status: .serviceUnavailable)
        case .busy:
          var response = TetherWebServer.page(
            "<!doctype html><p>Too many pages opened at once; try again in a few seconds.</p>",
            status: .tooManyRequests)
          response.headers[.retryAfter] = "10"
          return response
        }
      }
      let root = RouterPath(path.isEmpty ? "/" : path)
      router.get(root, use: pageHandler)
      router.get(RouterPath(path + "/**"), use: pageHandler)
      let headPage: @Sendable (Request, Context) async -> Response = { _, _ in
        TetherWebServer.headOnly(type: "text/html; charset=utf-8", cache: "no-store")
      }
      router.head(root, use: headPage)
      router.head(RouterPath(path + "/**"), use: headPage)
    }
  }
#endif

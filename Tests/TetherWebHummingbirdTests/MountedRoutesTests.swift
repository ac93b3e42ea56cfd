#if WebServer
  import Hummingbird
  import HummingbirdWebSocket
  import Logging
  import NIOCore
  import Testing
  import Tether
  import TetherFlow
  import TetherWeb

  @testable import TetherWebHummingbird

  /// An app's own request context: what it knows of a request beside Hummingbird's.
  struct AppRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    var user: String?

    init(source: ApplicationRequestContextSource) {
      coreContext = .init(source: source)
      webSocket = .init()
    }
  }

  /// The app's own middleware: names the user and marks every answer it saw.
  struct AppMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    func handle(
      _ request: Request, context: AppRequestContext,
      next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
      var context = context
      context.user = "ada"
      var response = try await next(request, context)
      if let name = HTTPFields.Element.Name("X-App") { response.headers[name] = context.user }
      return response
    }
  }

  @MainActor
  final class GreetingFlow: FlowController {
    func start(on navigator: any Navigator<String>) -> Screen<String> {
      Screen("Hello from Tether", title: "Greeting", owner: self)
    }
  }

  @MainActor
  final class GreetingScreen: WebScreen {
    let greeting: String
    init(_ greeting: String) { self.greeting = greeting }
    var body: Markup<Never> { p { greeting } }
  }

  /// Finding 10 of the attack run: the integration was fixed to Hummingbird's basic context
  /// and to root paths, so an app with its own context, middleware or a prefix could not use
  /// it. `TetherWebRoutes` mounts under a prefix in an app of its own.
  @MainActor
  @Suite struct MountedRoutesTests {
    /// The test client's requests name `localhost`, one of loopback's names.
    private func application(
      allowedHosts: WebHostAllowlist = WebHostAllowlist(binding: "127.0.0.1"),
      stylesheet: String? = nil, hooks: [WebHook: String] = [:]
    ) throws -> RouterClient {
      var app = WebApp(title: "Mounted", rootFlow: { GreetingFlow() }) { screen in
        GreetingScreen(screen.destination)
      }
      app.stylesheet = stylesheet
      for (hook, script) in hooks { app = try app.hook(hook, script: script) }
      let registry = WebSessionRegistry(app: app, appearanceWait: .zero, signing: .hmacSHA256)
      let router = Router(context: AppRequestContext.self)
      router.add(middleware: AppMiddleware())
      router.get("api/ping") { _, _ in "pong" }
      TetherWebRoutes<AppRequestContext>(
        registry: registry, mountedAt: "/app/", allowedHosts: allowedHosts,
        logger: Logger(label: "test")
      ).add(to: router)
      return RouterClient(router)
    }

    /// Finding 8 of the second attack run: any 32 hex digits in the cookie were adopted as the
    /// browser's id. A page is served with a cookie the server issued instead, and that one is
    /// kept.
    @Test func aCookieTheServerNeverIssuedIsReplaced() async throws {
      do {
        let client = try application()
        let forged = "tether-client=0123456789abcdef0123456789abcdef"
        let first = try await client.execute(
          uri: "/app", method: .get, headers: [.cookie: forged])
        #expect(first.status == .ok)
        let issued = try #require(first.headers[.setCookie])
        #expect(issued.hasPrefix("tether-client="))
        #expect(!issued.contains("0123456789abcdef0123456789abcdef"))
        let pair = try #require(issued.split(separator: ";").first)
        let again = try await client.execute(
          uri: "/app", method: .get, headers: [.cookie: "tether-client=x; " + String(pair)])
        #expect(again.headers[.setCookie] == nil, "an issued cookie is kept")
      }
    }

    @Test func pagesAssetsAndTheSocketAreUnderThePrefix() async throws {
      do {
        let client = try application()
        let page = try await client.execute(uri: "/app", method: .get)
        #expect(page.status == .ok)
        let html = String(buffer: page.body)
        #expect(html.contains("Hello from Tether"))
        // The page carries its script and style sheet: nothing to fetch under the prefix first.
        #expect(html.contains("<script data-session=") && html.contains("<style>"))
        #expect(!html.contains(#"src="/"#) && !html.contains(#"href="/tether.css""#))
        #expect(html.contains(#"data-base="/app""#), "the page opens its socket under the prefix")
        #expect(page.headers[.contentSecurityPolicy] != nil, "Tether's routes carry its headers")
        #expect(
          page.headers[HTTPFields.Element.Name("X-App")!] == "ada", "the app's middleware ran")

        let deep = try await client.execute(uri: "/app/", method: .get)
        #expect(deep.status == .ok)
        let missing = try await client.execute(uri: "/app/nowhere", method: .get)
        #expect(missing.status == .notFound)
        #expect(String(buffer: missing.body).contains(#"href="/app/""#))
        let script = try await client.execute(uri: "/app/tether.js", method: .get)
        #expect(script.status == .ok && String(buffer: script.body).contains("dataset.base"))
        let health = try await client.execute(uri: "/app/health", method: .get)
        #expect(String(buffer: health.body) == "ok")
        // The socket's route is there: a request from no page of this server is not upgraded.
        let socket = try await client.execute(uri: "/app/ws", method: .get)
        #expect(socket.status == .methodNotAllowed)
      }
    }

    @Test func theAppsOwnStyleSheetIsCarriedByItsPagesAndServedUnderThePrefix() async throws {
      do {
        let client = try application(stylesheet: ".greeting > p { color: teal; }")
        let page = try await client.execute(uri: "/app", method: .get)
        #expect(String(buffer: page.body).contains("<style>.greeting > p { color: teal; }</style>"))
        let sheet = try await client.execute(uri: "/app/app.css", method: .get)
        #expect(sheet.status == .ok)
        #expect(sheet.headers[.contentType] == "text/css; charset=utf-8")
        #expect(String(buffer: sheet.body) == ".greeting > p { color: teal; }")
      }
      // An app with none links none, and has no such route.
      do {
        let client = try application()
        let page = try await client.execute(uri: "/app", method: .get)
        #expect(!String(buffer: page.body).contains("app.css"))
        let sheet = try await client.execute(uri: "/app/app.css", method: .get)
        #expect(sheet.status != .ok)
      }
    }

    /// A hook's script is served by the app under the prefix with the server's policy, which
    /// runs scripts from this server only: the page loads it, never inline script.
    @Test func aHooksScriptIsServedUnderThePrefixWithThePolicy() async throws {
      let script = "(window.TetherHooks ??= {}).Chart = { mounted() {} };"
      let client = try application(hooks: [WebHook("Chart"): script])
      let page = try await client.execute(uri: "/app", method: .get)
      #expect(String(buffer: page.body).contains(#"<script src="/app/hooks/Chart.js"></script>"#))
      let served = try await client.execute(uri: "/app/hooks/Chart.js", method: .get)
      #expect(served.status == .ok)
      #expect(served.headers[.contentType] == "text/javascript; charset=utf-8")
      #expect(String(buffer: served.body) == script)
      let policy = try #require(served.headers[.contentSecurityPolicy])
      let scripts = policy.split(separator: ";").first { $0.contains("script-src") }
      #expect(scripts?.contains("'self'") == true && scripts?.contains("unsafe-inline") == false)
      let other = try await client.execute(uri: "/app/hooks/Other.js", method: .get)
      #expect(other.status != .ok)
    }

    @Test func theRestOfTheAppIsLeftAsItIs() async throws {
      do {
        let client = try application()
        let ping = try await client.execute(uri: "/api/ping", method: .get)
        #expect(String(buffer: ping.body) == "pong")
        #expect(ping.headers[.contentSecurityPolicy] == nil, "the app's routes are its own")
        let outside = try await client.execute(uri: "/gallery", method: .get)
        #expect(outside.status == .notFound, "no page outside the prefix")
        let root = try await client.execute(uri: "/tether.js", method: .get)
        #expect(root.status == .notFound)
      }
    }

    @Test func aRebindingHostIsRefusedUnderThePrefix() async throws {
      // A server that answers to example.com only: a request naming localhost is refused.
      do {
        let client = try application(allowedHosts: WebHostAllowlist(["example.com"]))
        let page = try await client.execute(uri: "/app", method: .get)
        #expect(page.status == .misdirectedRequest)
        let ping = try await client.execute(uri: "/api/ping", method: .get)
        #expect(ping.status == .ok, "the app's own routes decide for themselves")
      }
    }

    @Test func mountedAtTheRootTheyAreTheServersOwnPaths() async throws {
      let app = WebApp(title: "Root", rootFlow: { GreetingFlow() }) { screen in
        GreetingScreen(screen.destination)
      }
      let registry = WebSessionRegistry(app: app, appearanceWait: .zero, signing: .hmacSHA256)
      let router = Router(context: AppRequestContext.self)
      TetherWebRoutes<AppRequestContext>(registry: registry, logger: Logger(label: "test"))
        .add(to: router)
      do {
        let client = RouterClient(router)
        let page = try await client.execute(uri: "/", method: .get)
        let html = String(buffer: page.body)
        #expect(page.status == .ok && html.contains("<script data-session="))
        #expect(!html.contains("data-base"), "no prefix to name")
        let deep = try await client.execute(uri: "/anything", method: .get)
        #expect(deep.status == .notFound, "a path no screen shows")
        let script = try await client.execute(uri: "/tether.js", method: .get)
        #expect(script.status == .ok)
      }
    }

    @Test func aPrefixIsNormalized() {
      #expect(TetherWebRoutes<AppRequestContext>.normalized("app/") == "/app")
      #expect(TetherWebRoutes<AppRequestContext>.normalized("/a//b/") == "/a/b")
      #expect(TetherWebRoutes<AppRequestContext>.normalized("/") == "")
      #expect(TetherWebRoutes<AppRequestContext>.normalized("") == "")
    }
  }
#endif

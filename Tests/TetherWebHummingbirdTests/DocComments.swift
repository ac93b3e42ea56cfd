#if WebServer
  import Hummingbird
  import HummingbirdWebSocket
  import Logging
  import Tether
  import TetherFlow
  import TetherWeb
  import TetherWebHummingbird

  // The compiled companion of the Swift blocks in the doc comments of
  // `Sources/TetherWebHummingbird` (DocSnippetTests checks that each appears here): this
  // target is built with the `WebServer` trait, the docs target is not. Nothing here runs.
  enum TetherWebHummingbirdDocComments {
    struct AppRequestContext: RequestContext, WebSocketRequestContext {
      var coreContext: CoreRequestContextStorage
      let webSocket: WebSocketHandlerReference<AppRequestContext>
      init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
      }
    }

    @MainActor final class CounterViewModel {
      @Output private(set) var count = 0
    }
    enum CounterDestination { case counter(CounterViewModel) }
    @MainActor final class CounterScreen: WebScreen {
      let model: CounterViewModel
      init(_ model: CounterViewModel) { self.model = model }
      var body: Markup<Never> { p { "Count: \(model.count)" } }
    }
    @MainActor final class CounterFlow: FlowController {
      func start(on navigator: any Navigator<CounterDestination>) -> Screen<CounterDestination> {
        Screen(.counter(CounterViewModel()), title: "Counter", owner: self)
      }
    }

    @MainActor static func routes(counterApp: WebApp, logger: Logger) {
      let registry = WebSessionRegistry(app: counterApp, signing: .hmacSHA256)
      let router = Router(context: AppRequestContext.self)
      router.add(middleware: LogRequestsMiddleware(.info))
      router.get("api/ping") { _, _ in "pong" }
      TetherWebRoutes<AppRequestContext>(registry: registry, mountedAt: "/app", logger: logger)
        .add(to: router)
      let app = Application(
        router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
        configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
      _ = app
    }

    @MainActor static func server() async throws {
      let app = WebApp(title: "Counter", rootFlow: { CounterFlow() }) { screen in
        // …
        switch screen.destination {
        case .counter(let counter): CounterScreen(counter)
        }
      }
      try await TetherWebServer.run(app, port: 8080) { port in
        print("http://127.0.0.1:\(port)")
      }
    }
  }
#endif

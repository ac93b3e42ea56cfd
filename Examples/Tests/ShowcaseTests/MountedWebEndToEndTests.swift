import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import ShowcaseBrowser
import ShowcaseWeb
import Testing
import TetherWeb
import TetherWebHummingbird

/// A host app's own request context.
struct HostRequestContext: RequestContext, WebSocketRequestContext {
  var coreContext: CoreRequestContextStorage
  let webSocket: WebSocketHandlerReference<Self>

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    webSocket = .init()
  }
}

extension EndToEnd {
  /// The showcase mounted at `/app` in a Hummingbird app of its own (its own context and
  /// routes), driven in Chromium: the page's socket, its addresses and Back all stay under the
  /// prefix.
  @Suite(.serialized, .enabled(if: browserIsInstalled, "needs chromium and chromedriver"))
  @MainActor struct MountedWebEndToEndTests {
    @Test func theShowcaseUnderAPrefixIsLiveInChromium() async throws {
      var logger = Logger(label: "mounted")
      logger.logLevel = .critical
      let registry = WebSessionRegistry(
        services: .bundled(thumbnailDelay: .zero), signing: .hmacSHA256)
      let router = Router(context: HostRequestContext.self)
      router.get("/") { _, _ in "the host app's own home" }
      TetherWebRoutes<HostRequestContext>(registry: registry, mountedAt: "/app", logger: logger)
        .add(to: router)
      let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
      let application = Application(
        router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { portSink.yield($0.localAddress?.port ?? 0) }, logger: logger)
      let server = Task { try await application.runService(gracefulShutdownSignals: []) }
      defer {
        server.cancel()
        registry.closeAll()
      }
      var iterator = ports.makeAsyncIterator()
      let port = try #require(await iterator.next())
      let base = "http://127.0.0.1:\(port)"
      let browser = try await Browser()
      do {
        let path = { try await browser.run("return location.pathname;") as? String ?? "" }
        let title = { try await browser.text("#title") }
        try await browser.open(base + "/app/courses")
        try await browser.waitUntil("courses") { try await browser.count("#screen .row") > 2 }
        // A gesture reaches the session only over the socket at /app/ws.
        try await browser.click("#screen .row:nth-child(2)")
        try await browser.waitUntil("the course") { try await title() == "Podcasts Course" }
        #expect(try await path().hasPrefix("/app/courses/course/"), "the address is under /app")
        #expect(registry.connectedCount == 1, "one socket, through the mounted route")
        try await browser.back()
        try await browser.waitUntil("the list again") { try await title() == "Courses" }
        #expect(try await path() == "/app/courses")
        // A reload of an address under the prefix opens that screen again.
        try await browser.open(base + "/app/courses/course/2")
        try await browser.waitUntil("the deep link") { try await title() == "Podcasts Course" }
        try await browser.open(base + "/")
        #expect(try await browser.text("body") == "the host app's own home")
      } catch {
        await browser.quit()
        throw error
      }
      await browser.quit()
    }
  }
}

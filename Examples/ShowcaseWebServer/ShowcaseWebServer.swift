import Foundation
import Gallery
import HeapStatistics
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ShowcaseFlows
import ShowcaseWeb
import TetherWeb

/// The showcase in a browser: pages, the client script and style, the catalog's pictures, and
/// the WebSocket each page talks to its session over.
public enum ShowcaseWebServer {
  /// The largest message a page may send over its socket: the session's own limit
  /// (``ClientMessage/maximumSize``), enforced on the frame, so a larger one closes the socket
  /// before it is read whole.
  public static let maximumMessageSize = ClientMessage.maximumSize

  /// The router: `GET /tether.js`, `/tether.css`, `/images/photos/<id>.png`, `/health`,
  /// `/stats` (a ``WebServerStats``), the
  /// socket at `/ws`, and a page for every other path.
  public static func makeRouter(
    registry: WebSessionRegistry, logger: Logger
  ) -> Router<BasicWebSocketRequestContext> {
    let router = Router(context: BasicWebSocketRequestContext.self)
    router.get("health") { _, _ in "ok" }
    router.get("stats") { _, _ -> Response in
      let (sessions, connected, viewModels) = await (
        registry.count, registry.connectedCount, registry.liveObjects
      )
      let bytes = heap_statistics_bytes_in_use()
      let json = WebServerStats(
        sessions: sessions, connected: connected, liveViewModels: viewModels,
        heapBytes: bytes >= 0 ? Int(bytes) : nil
      ).json
      return Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }
    router.get("tether.js") { _, _ in
      asset(WebAssets.script, type: "text/javascript; charset=utf-8")
    }
    router.get("tether.css") { _, _ in asset(WebAssets.style, type: "text/css; charset=utf-8") }
    router.get("images/photos/:file") { request, _ -> Response in
      guard let id = PhotoImage.photoID(inPath: request.uri.path),
        BundledPhotoService.photo(id: id) != nil
      else { return Response(status: .notFound) }
      return Response(
        status: .ok,
        headers: [.contentType: "image/png", .cacheControl: "public, max-age=86400"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: PhotoImage(photoID: id).png())))
    }
    router.ws(
      "ws",
      shouldUpgrade: { request, _ in
        // Only this server's own pages may connect: a page elsewhere cannot drive a session.
        guard isSameOrigin(request) else { return .dontUpgrade }
        return .upgrade([:])
      },
      onUpgrade: { inbound, outbound, context in
        let query = context.request.uri.queryParameters
        let id = query["session"].map(String.init) ?? ""
        var resync = query["resync"] != nil
        var messages = inbound.messages(maxSize: maximumMessageSize).makeAsyncIterator()
        // With a resume key, a page's first message is its newest resume token: the session
        // may live on another node, or on one that died, or be here but behind the page. A
        // page that says nothing for 5 s is told there is no such session.
        var early: String?
        if await registry.resumeSigner != nil {
          let silence = Task {
            try await Task.sleep(for: .seconds(5))
            try await outbound.close(.unknown(4404), reason: "no such session")
          }
          let first = try? await messages.next()
          silence.cancel()
          guard case .text(let text)? = first else {
            try? await outbound.close(.unknown(4404), reason: "no such session")
            return
          }
          if case .resume(let token)? = try? ClientMessage(decoding: text) {
            switch await registry.resume(id, token: token) {
            case .held: break
            case .rebuilt: resync = true  // the page shows what another node last sent
            case .refused(let refusal):
              logger.notice("session resume refused: \(refusal)")
              try await outbound.close(
                .unknown(closeCode(for: refusal)), reason: refusal.description)
              return
            }
          } else {
            early = text  // a page with no token: its first gesture, handled once attached
          }
        }
        let (stream, continuation) = AsyncStream.makeStream(
          of: String.self, bufferingPolicy: .bufferingNewest(256))
        let connection = await registry.attach(id, resync: resync) { continuation.yield($0) }
        guard let connection else {
          try await outbound.close(.unknown(4404), reason: "no such session")
          return
        }
        if let early, let error = await registry.receive(id, early) {
          logger.notice("session refused a message: \(error)")
        }
        await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask {
            for await text in stream { try await outbound.write(.text(text)) }
          }
          do {
            while let message = try await messages.next() {
              guard case .text(let text) = message else {
                logger.notice("session refused a binary message")
                continue
              }
              if let error = await registry.receive(id, text) {
                logger.notice("session refused a message: \(error)")
              }
            }
          } catch {
            logger.notice("session socket ended: \(error)")
          }
          continuation.finish()
          group.cancelAll()
        }
        await registry.detach(id, connection: connection)
      })
    let pageHandler: @Sendable (Request, BasicWebSocketRequestContext) async -> Response = {
      request, _ in
      switch await registry.page(for: request.uri.path) {
      case .page(let html, _):
        return page(html, status: .ok)
      case .notFound(let html):
        return page(html, status: .notFound)
      case .full:
        return page(
          "<!doctype html><p>The showcase is full; try again in a minute.</p>",
          status: .serviceUnavailable)
      }
    }
    router.get("/", use: pageHandler)
    router.get("**", use: pageHandler)
    return router
  }

  /// The application, listening on `host:port` (`port` 0 picks a free one).
  public static func makeApplication(
    host: String, port: Int, registry: WebSessionRegistry, logger: Logger,
    onRunning: @escaping @Sendable (Int) async -> Void
  ) -> some ApplicationProtocol {
    let router = makeRouter(registry: registry, logger: logger)
    return Application(
      router: router,
      server: .http1WebSocketUpgrade(
        webSocketRouter: router,
        configuration: .init(ws: .init(maxFrameSize: maximumMessageSize))),
      configuration: .init(address: .hostname(host, port: port), serverName: "showcase-web"),
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
      logger: logger)
  }

  /// The close code for a refused resume: 4403 for a token that is not good (forged, altered,
  /// expired, another session's: the page loads its URL anew), 4404 when this server cannot
  /// resume at all or the path is gone, 4503 when it is full (the page retries).
  public static func closeCode(for refusal: WebResumeError) -> UInt16 {
    switch refusal {
    case .malformed, .badSignature, .expired, .otherSession: 4403
    case .notEnabled, .unknownPath: 4404
    case .full: 4503
    }
  }

  /// Whether the request's `Origin` is the host it was sent to.
  static func isSameOrigin(_ request: Request) -> Bool {
    guard let origin = request.headers[.origin], let host = request.head.authority else {
      return false
    }
    return origin == "http://\(host)" || origin == "https://\(host)"
  }

  private static func asset(_ text: String, type: String) -> Response {
    Response(
      status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  private static func page(_ html: String, status: HTTPResponse.Status) -> Response {
    Response(
      status: status,
      headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
  }
}

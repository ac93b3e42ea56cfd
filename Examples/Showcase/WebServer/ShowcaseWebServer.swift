import Gallery
import HeapStatistics
import Hummingbird
import HummingbirdWebSocket
import Logging
import ShowcaseFlows
import ShowcaseWeb
import TetherWeb
import TetherWebHummingbird

/// The showcase in a browser: TetherWebHummingbird's server (pages, assets, `/health`, the
/// session sockets) with the showcase's own routes: the catalog's pictures, and `/stats` when
/// asked for.
public enum ShowcaseWebServer {
  /// The showcase's own routes: `GET /images/photos/<id>.png`, and with `stats`, `/stats` (a
  /// ``WebServerStats``).
  ///
  /// - Parameters:
  ///   - router: The router TetherWebHummingbird builds.
  ///   - registry: The sessions, for `/stats`.
  ///   - stats: Whether to serve `/stats`: for tests and load runs. Off by default, since it
  ///     tells anyone how many sessions and how much memory the server has (without it,
  ///     `/stats` is a page path, and no screen has it: 404).
  public static func addShowcaseRoutes(
    to router: Router<BasicWebSocketRequestContext>, registry: WebSessionRegistry,
    stats: Bool = false
  ) {
    if stats { addStatsRoute(to: router, registry: registry) }
    router.get("images/photos/:file") { request, _ -> Response in
      guard let id = PhotoImage.photoID(inPath: request.uri.path),
        BundledPhotoService.photo(id: id) != nil
      else { return Response(status: .notFound) }
      return Response(
        status: .ok,
        headers: [.contentType: "image/png", .cacheControl: "public, max-age=86400"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: PhotoImage(photoID: id).png())))
    }
  }

  private static func addStatsRoute(
    to router: Router<BasicWebSocketRequestContext>, registry: WebSessionRegistry
  ) {
    router.get("stats") { _, _ -> Response in
      let (sessions, connected, objects) = await (
        registry.count, registry.connectedCount, registry.liveObjects
      )
      let bytes = heap_statistics_bytes_in_use()
      let json = WebServerStats(
        sessions: sessions, connected: connected, liveViewModels: objects,
        heapBytes: bytes >= 0 ? Int(bytes) : nil
      ).json
      return Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }
  }

  /// The application, listening on `host:port` (`port` 0 picks a free one), with `/stats`
  /// if `stats`.
  public static func makeApplication(
    host: String, port: Int, registry: WebSessionRegistry, stats: Bool = false,
    limits: WebConnectionLimits = WebConnectionLimits(), logger: Logger,
    onRunning: @escaping @Sendable (Int) async -> Void
  ) -> some ApplicationProtocol {
    TetherWebServer.makeApplication(
      registry: registry, host: host, port: port, serverName: "showcase-web", limits: limits,
      logger: logger,
      onRunning: onRunning,
      routes: { addShowcaseRoutes(to: $0, registry: registry, stats: stats) })
  }
}

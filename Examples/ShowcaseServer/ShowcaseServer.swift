import Articles
import Courses
import Entry
import ExampleSupport
import Foundation
import Gallery
import Hummingbird
import Logging
import NIOCore
import Profile
import ServiceLifecycle

/// The HTTP server behind `showcase-api`: the examples' bundled data in their wire formats.
///
/// Its routes are listed, once, in ``routes``.
public enum ShowcaseServer {
  /// One route the server answers: how to call it, what it returns, and a path that answers
  /// 200 (tests request every one, so this list cannot drift from the router).
  public struct Route: Sendable {
    /// The method and path pattern, e.g. `GET /users/{login}`.
    public let pattern: String
    /// What the route returns.
    public let summary: String
    /// A concrete path, with its query, that the bundled data answers with 200.
    public let example: String
  }

  /// Every route, in the order `showcase-api --help` lists them.
  public static let routes: [Route] = [
    Route(
      pattern: "GET /v1/photos?feature=popular&page=N",
      summary: "the Gallery, in the 500px v1 format", example: "/v1/photos?feature=popular&page=2"),
    Route(
      pattern: "GET /courses", summary: "the Courses: [{name, number_of_lessons, ...}]",
      example: "/courses"),
    Route(
      pattern: "GET /users/{login}",
      summary: "a Profile, in the GitHub users format (404 for unknown logins)",
      example: "/users/octocat"),
    Route(
      pattern: "GET /articles", summary: "the Articles, as seed 003's dictionaries",
      example: "/articles"),
    Route(pattern: "GET /user", summary: "the Entry's next user: {name}", example: "/user"),
    Route(
      pattern: "GET /thumbnails/{name}.pgm", summary: "an article thumbnail, binary PGM",
      example: "/thumbnails/mvvm.pgm"),
    Route(
      pattern: "GET /health", summary: "ok, for scripts waiting for the server", example: "/health"),
  ]

  /// Builds the router serving every example's data, with `faults` applied to data routes.
  ///
  /// - Parameter faults: The faults to inject.
  /// - Returns: The router.
  public static func makeRouter(faults: FaultInjection = .none) -> Router<BasicRequestContext> {
    let router = Router()
    router.get("health") { _, _ in "ok" }
    router.get("v1/photos") { request, _ -> Response in
      if let failure = await injectFaults(faults) { return failure }
      let feature = request.uri.queryParameters["feature"].map(String.init) ?? "popular"
      guard feature == "popular" else {
        return errorResponse(.badRequest, "unknown feature '\(feature)'; this server has 'popular'")
      }
      let pageText = request.uri.queryParameters["page"].map(String.init) ?? "1"
      guard let page = Int(pageText), page >= 1 else {
        return errorResponse(.badRequest, "page must be a whole number from 1, not '\(pageText)'")
      }
      return try jsonResponse(BundledPhotoService.page(page))
    }
    router.get("courses") { _, _ -> Response in
      if let failure = await injectFaults(faults) { return failure }
      return try jsonResponse(BundledCourseService.catalog)
    }
    router.get("users/:login") { _, context -> Response in
      if let failure = await injectFaults(faults) { return failure }
      let login = context.parameters.get("login") ?? ""
      guard let profile = BundledProfileService.profiles[login] else {
        return errorResponse(.notFound, "no user '\(login)'")
      }
      return try jsonResponse(profile)
    }
    router.get("articles") { _, _ -> Response in
      if let failure = await injectFaults(faults) { return failure }
      let dictionaries = BundledArticleService.records.map { record -> [String: JSONValue] in
        switch record {
        case .model(let article): article.dictionary
        case .dictionary(let dictionary): dictionary
        }
      }
      return try jsonResponse(dictionaries)
    }
    let users = BundledUserFetcher()
    router.get("user") { _, _ -> Response in
      if let failure = await injectFaults(faults) { return failure }
      return try jsonResponse(try await users.fetchUser())
    }
    router.get("thumbnails/:name") { _, context -> Response in
      if let failure = await injectFaults(faults) { return failure }
      let name = context.parameters.get("name") ?? ""
      guard name.hasSuffix(".pgm"), name.count > 4 else {
        return errorResponse(.notFound, "thumbnails are named <name>.pgm")
      }
      return Response(
        status: .ok, headers: [.contentType: "image/x-portable-graymap"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: Thumbnail.generated(for: name).pgmData)))
    }
    return router
  }

  /// Builds the application listening on `host:port`.
  ///
  /// - Parameters:
  ///   - host: The address to bind; loopback by default.
  ///   - port: The port; 0 picks a free one (reported through `onRunning`).
  ///   - faults: The faults to inject.
  ///   - logLevel: How much the server logs.
  ///   - onRunning: Called with the bound port once the server accepts connections.
  /// - Returns: The application; run it with `runService()` or in a `ServiceGroup`.
  public static func makeApplication(
    host: String = "127.0.0.1",
    port: Int,
    faults: FaultInjection = .none,
    logLevel: Logger.Level = .notice,
    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    var logger = Logger(label: "showcase-api")
    logger.logLevel = logLevel
    return Application(
      router: makeRouter(faults: faults),
      configuration: .init(address: .hostname(host, port: port), serverName: "showcase-api"),
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
      logger: logger)
  }

  private static func injectFaults(_ faults: FaultInjection) async -> Response? {
    if faults.latency > .zero { try? await Task.sleep(for: faults.latency) }
    var random = SystemRandomNumberGenerator()
    guard faults.shouldFail(using: &random) else { return nil }
    switch faults.mode {
    case .status:
      let status = HTTPResponse.Status(code: faults.failStatus)
      return errorResponse(status, "injected failure (\(faults.failStatus))")
    case .malformed:
      return Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: ResponseBody(
          byteBuffer: ByteBuffer(string: #"{"current_page": 1, "photos": [{"id": "#)))
    case .close:
      // Headers go out, then the body fails: the server drops the connection mid-response.
      return Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: ResponseBody { _ in throw InjectedDisconnect() })
    }
  }

  private struct InjectedDisconnect: Error {}

  private static func jsonResponse(_ value: some Encodable) throws -> Response {
    let data = try JSONEncoder().encode(value)
    return Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }

  private static func errorResponse(_ status: HTTPResponse.Status, _ message: String) -> Response {
    let body = (try? JSONEncoder().encode(["error": message])) ?? Data()
    return Response(
      status: status, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }
}

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
      pattern: "GET /v1/photos/{id}",
      summary: "one Gallery photo, {\"photo\": {...}} (404 for unknown ids)",
      example: "/v1/photos/230200400"),
    Route(
      pattern: "GET /images/photos/{id}.png", summary: "a Gallery photo's picture, PNG",
      example: "/images/photos/230200400.png"),
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
    makeRouter(faults: FaultSwitch(faults))
  }

  /// Builds the router serving every example's data, with the switch's current faults applied
  /// to each request of a data route.
  ///
  /// - Parameter faults: The faults to inject, changeable while the server runs.
  /// - Returns: The router.
  public static func makeRouter(faults: FaultSwitch) -> Router<BasicRequestContext> {
    let router = Router()
    router.get("health") { _, _ in "ok" }
    // Every data route goes through the fault injection; /health never does.
    let data = router.group().add(middleware: FaultInjectionMiddleware(source: faults))
    data.get("v1/photos") { request, _ -> Response in
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
    data.get("v1/photos/:id") { _, context -> Response in
      let text = context.parameters.get("id") ?? ""
      guard let id = Int(text), let photo = BundledPhotoService.photo(id: id) else {
        return errorResponse(.notFound, "no photo '\(text)'")
      }
      return try jsonResponse(["photo": photo])
    }
    data.get("images/photos/:file") { request, _ -> Response in
      guard let id = PhotoImage.photoID(inPath: request.uri.path),
        BundledPhotoService.photo(id: id) != nil
      else {
        return errorResponse(.notFound, "pictures are /images/photos/<id>.png for catalog ids")
      }
      return Response(
        status: .ok,
        headers: [.contentType: "image/png", .cacheControl: "public, max-age=86400"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: PhotoImage(photoID: id).png())))
    }
    data.get("courses") { _, _ -> Response in
      return try jsonResponse(BundledCourseService.catalog)
    }
    data.get("users/:login") { _, context -> Response in
      let login = context.parameters.get("login") ?? ""
      guard let profile = BundledProfileService.profiles[login] else {
        return errorResponse(.notFound, "no user '\(login)'")
      }
      return try jsonResponse(profile)
    }
    data.get("articles") { _, _ -> Response in
      let dictionaries = BundledArticleService.records.map { record -> [String: JSONValue] in
        switch record {
        case .model(let article): article.dictionary
        case .dictionary(let dictionary): dictionary
        }
      }
      return try jsonResponse(dictionaries)
    }
    let users = BundledUserFetcher()
    data.get("user") { _, _ -> Response in
      return try jsonResponse(try await users.fetchUser())
    }
    data.get("thumbnails/:name") { _, context -> Response in
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
    makeApplication(
      host: host, port: port, faults: FaultSwitch(faults), logLevel: logLevel,
      onRunning: onRunning)
  }

  /// Builds the application listening on `host:port`, its faults changeable while it runs.
  ///
  /// - Parameters:
  ///   - host: The address to bind; loopback by default.
  ///   - port: The port; 0 picks a free one (reported through `onRunning`).
  ///   - faults: The faults to inject, read for every request.
  ///   - logLevel: How much the server logs.
  ///   - onRunning: Called with the bound port once the server accepts connections.
  /// - Returns: The application; run it with `runService()` or in a `ServiceGroup`.
  public static func makeApplication(
    host: String = "127.0.0.1",
    port: Int,
    faults: FaultSwitch,
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

  static func jsonResponse(_ value: some Encodable) throws -> Response {
    let data = try JSONEncoder().encode(value)
    return Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }

  static func errorResponse(_ status: HTTPResponse.Status, _ message: String) -> Response {
    let body = (try? JSONEncoder().encode(["error": message])) ?? Data()
    return Response(
      status: status, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }
}

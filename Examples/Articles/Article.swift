import ExampleSupport
import Foundation

/// An article (seed 003): title, body, date, thumbnail address, saved flag.
public struct Article: Identifiable, Equatable, Hashable, Sendable, Codable {
  /// A stable id.
  public var id: Int
  /// The headline.
  public var title: String
  /// The text.
  public var body: String
  /// The publication date.
  public var date: Date
  /// The thumbnail's address (absolute, or relative to the server).
  public var thumbnail: URL
  /// Whether the reader saved it.
  public var saved: Bool

  /// Creates an article.
  ///
  /// - Parameters:
  ///   - id: A stable id.
  ///   - title: The headline.
  ///   - body: The text.
  ///   - date: The publication date.
  ///   - thumbnail: The thumbnail's address.
  ///   - saved: Whether the reader saved it.
  public init(id: Int, title: String, body: String, date: Date, thumbnail: URL, saved: Bool = false)
  {
    self.id = id
    self.title = title
    self.body = body
    self.date = date
    self.thumbnail = thumbnail
    self.saved = saved
  }

  /// The article in seed 003's dictionary form: `title`, `body`, `date` (ISO 8601), `thumbnail`.
  public var dictionary: [String: JSONValue] {
    [
      "id": .number(Double(id)), "title": .string(title), "body": .string(body),
      "date": .string(date.formatted(.iso8601)), "thumbnail": .string(thumbnail.relativeString),
      "saved": .bool(saved),
    ]
  }
}

/// One article as a source hands it over: a typed model, or a loosely typed dictionary.
public enum ArticleRecord: Equatable, Sendable {
  /// A decoded model.
  case model(Article)
  /// Seed 003's dictionary, possibly with missing or ill-typed keys.
  case dictionary([String: JSONValue])
}

/// Where articles come from: ``BundledArticleService`` or ``HTTPArticleService``.
public protocol ArticleService: Sendable {
  /// Every article.
  ///
  /// - Returns: The articles, newest first.
  /// - Throws: A ``ServiceError``.
  func articles() async throws(ServiceError) -> [ArticleRecord]
}

/// The embedded articles: some as models, some as dictionaries, including dictionaries with
/// missing and wrongly typed keys (which must show fallbacks, not crash).
public struct BundledArticleService: ArticleService {
  /// The articles that are typed models.
  public static let models: [Article] = [
    Article(
      id: 1, title: "MVVM without the desperation",
      body: "View models hold state; views bind to it. Nothing else.",
      date: Date(timeIntervalSince1970: 1_506_867_811), thumbnail: relative("/thumbnails/mvvm.pgm")),
    Article(
      id: 2, title: "流程控制器：把导航移出视图",
      body: "Flow controllers own navigation and dependency injection.\nViews stay passive.",
      date: Date(timeIntervalSince1970: 1_526_000_000), thumbnail: relative("/thumbnails/flow.pgm"),
      saved: true),
  ]

  /// Every record, as the service returns it.
  public static let records: [ArticleRecord] =
    models.map(ArticleRecord.model) + [
      .dictionary([
        "id": .number(3), "title": .string("Binding a thumbnail that arrives later"),
        "body": .string("Property-level binding solves seed 003's open problem."),
        "date": .string("2018-06-01T09:30:00Z"), "thumbnail": .string("/thumbnails/binding.pgm"),
      ]),
      .dictionary([
        "id": .number(4), "title": .string("Статья без даты"),
        "body": .string("Ключ date отсутствует."),
        "thumbnail": .string("/thumbnails/nodate.pgm"),
      ]),
      .dictionary([
        "id": .number(5), "title": .number(42), "body": .null, "date": .string("next Tuesday"),
        "thumbnail": .number(7),
      ]),
    ]

  /// Creates the service.
  public init() {}

  /// The bundled records.
  public func articles() async throws(ServiceError) -> [ArticleRecord] {
    Self.records
  }
}

/// Articles from a server: `GET {base}/articles`, an array of seed 003's dictionaries.
public struct HTTPArticleService: ArticleService {
  private let client: HTTPClient

  /// Creates a service for the server at `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: The server's root.
  ///   - timeout: The limit for one request.
  public init(baseURL: URL, timeout: Duration = .seconds(10)) {
    client = HTTPClient(baseURL: baseURL, timeout: timeout)
  }

  /// Fetches the dictionaries; an element that is not an object is a malformed response.
  public func articles() async throws(ServiceError) -> [ArticleRecord] {
    let values = try await client.get("/articles", as: [JSONValue].self)
    return try values.enumerated().map { (index, value) throws(ServiceError) in
      guard let object = value.objectValue else {
        throw .malformedResponse("'[\(index)]' is not an article object")
      }
      return .dictionary(object)
    }
  }
}

/// A relative URL for a server path (the bundled paths are constants, always valid).
private func relative(_ path: String) -> URL {
  URL(string: path) ?? URL(fileURLWithPath: path)
}

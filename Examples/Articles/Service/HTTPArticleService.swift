import ExampleSupport
import Foundation

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
    try Self.records(from: await client.getData("/articles"))
  }

  /// Reads a response body: a JSON array of article dictionaries.
  ///
  /// - Parameter data: The body.
  /// - Returns: One dictionary record per element.
  /// - Throws: ``ServiceError/malformedResponse(_:)`` if the body is not a JSON array, or an
  ///   element is not an object.
  public static func records(from data: Data) throws(ServiceError) -> [ArticleRecord] {
    let values = try HTTPClient.decode(data, as: [JSONValue].self)
    return try values.enumerated().map { (index, value) throws(ServiceError) in
      guard let object = value.objectValue else {
        throw .malformedResponse("'[\(index)]' is not an article object")
      }
      return .dictionary(object)
    }
  }
}

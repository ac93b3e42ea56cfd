import ExampleSupport
import Foundation

/// The gallery's photos from a server speaking the 500px v1 format:
/// `GET {base}/v1/photos?feature=popular&page=N`.
public struct HTTPPhotoService: PhotoService {
  private let client: HTTPClient

  /// Creates a service for the server at `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: The server's root, e.g. `http://127.0.0.1:8080`.
  ///   - timeout: The limit for one request.
  public init(baseURL: URL, timeout: Duration = .seconds(10)) {
    client = HTTPClient(baseURL: baseURL, timeout: timeout)
  }

  /// Fetches and decodes one page.
  public func popularPhotos(page: Int) async throws(ServiceError) -> PhotoPage {
    try await client.get(
      "/v1/photos",
      query: [
        URLQueryItem(name: "feature", value: "popular"),
        URLQueryItem(name: "page", value: String(page)),
      ],
      as: PhotoPage.self)
  }

  /// Fetches one photo: `GET {base}/v1/photos/:id`, answered as `{"photo": {…}}`.
  public func photo(id: Int) async throws(ServiceError) -> Photo {
    try await client.get("/v1/photos/\(id)", as: SinglePhoto.self).photo
  }
}

/// The 500px v1 answer for one photo: `{"photo": {…}}`.
struct SinglePhoto: Codable, Sendable {
  var photo: Photo
}

import ExampleSupport
import Foundation

/// Thumbnails from a server, as binary PGM.
public struct HTTPThumbnailLoader: ThumbnailLoader {
  private let client: HTTPClient

  /// Creates a loader resolving relative URLs against `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: The server's root.
  ///   - timeout: The limit for one request.
  public init(baseURL: URL, timeout: Duration = .seconds(10)) {
    client = HTTPClient(baseURL: baseURL, timeout: timeout)
  }

  /// Downloads and parses the image at `url`.
  public func thumbnail(at url: URL) async throws(ServiceError) -> Thumbnail {
    let path = url.path.hasPrefix("/") ? url.path : "/" + url.path
    return try Thumbnail(pgm: try await client.getData(path))
  }
}

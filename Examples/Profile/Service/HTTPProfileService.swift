import ExampleSupport
import Foundation

/// Profiles from a server: `GET {base}/users/{login}`.
public struct HTTPProfileService: ProfileService {
  private let client: HTTPClient

  /// Creates a service for the server at `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: The server's root.
  ///   - timeout: The limit for one request.
  public init(baseURL: URL, timeout: Duration = .seconds(10)) {
    client = HTTPClient(baseURL: baseURL, timeout: timeout)
  }

  /// Fetches and decodes the profile of `login`.
  public func profile(login: String) async throws(ServiceError) -> Profile {
    let escaped = login.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? login
    return try await client.get("/users/\(escaped)", as: Profile.self)
  }
}

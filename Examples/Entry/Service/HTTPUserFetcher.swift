import ExampleSupport
import Foundation
import Tether

/// Users from a server: `GET {base}/user`.
public struct HTTPUserFetcher: UserFetcher {
  private let client: HTTPClient

  /// Creates a fetcher for the server at `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: The server's root.
  ///   - timeout: The limit for one request.
  public init(baseURL: URL, timeout: Duration = .seconds(10)) {
    client = HTTPClient(baseURL: baseURL, timeout: timeout)
  }

  /// Fetches and decodes a user.
  public func fetchUser() async throws(ServiceError) -> User {
    try await client.get("/user", as: User.self)
  }
}

import ExampleSupport
import Foundation

/// Courses from a server: `GET {base}/courses`.
public struct HTTPCourseService: CourseService {
  private let client: HTTPClient

  /// Creates a service for the server at `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: The server's root.
  ///   - timeout: The limit for one request.
  public init(baseURL: URL, timeout: Duration = .seconds(10)) {
    client = HTTPClient(baseURL: baseURL, timeout: timeout)
  }

  /// Fetches and decodes the courses.
  public func courses() async throws(ServiceError) -> [Course] {
    try await client.get("/courses", as: [Course].self)
  }
}

import ExampleSupport
import Foundation

/// A course as the courses API returns it: `[{"name": …, "number_of_lessons": …, …}]`.
public struct Course: Identifiable, Equatable, Hashable, Sendable, Codable {
  /// A stable id (the API's, or one derived from the name when it sends none).
  public var id: Int
  /// The course's title.
  public var name: String
  /// How many lessons it has.
  public var numberOfLessons: Int
  /// A page about the course, when the API sends one.
  public var link: String?
  /// A cover image's address, when the API sends one.
  public var imageURL: String?

  /// Creates a course.
  ///
  /// - Parameters:
  ///   - id: A stable id.
  ///   - name: The title.
  ///   - numberOfLessons: The lesson count.
  ///   - link: A page about the course.
  ///   - imageURL: A cover image's address.
  public init(
    id: Int, name: String, numberOfLessons: Int, link: String? = nil, imageURL: String? = nil
  ) {
    self.id = id
    self.name = name
    self.numberOfLessons = numberOfLessons
    self.link = link
    self.imageURL = imageURL
  }

  enum CodingKeys: String, CodingKey {
    case id, name, link
    case numberOfLessons = "number_of_lessons"
    case imageURL = "imageUrl"
  }

  /// Decodes a course; `id`, `link` and `imageUrl` are optional, a negative lesson count is
  /// rejected.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    numberOfLessons = try container.decode(Int.self, forKey: .numberOfLessons)
    guard numberOfLessons >= 0 else {
      throw DecodingError.dataCorruptedError(
        forKey: .numberOfLessons, in: container,
        debugDescription: "a course cannot have \(numberOfLessons) lessons")
    }
    id = try container.decodeIfPresent(Int.self, forKey: .id) ?? Self.stableID(for: name)
    link = try container.decodeIfPresent(String.self, forKey: .link)
    imageURL = try container.decodeIfPresent(String.self, forKey: .imageURL)
  }

  /// A deterministic id from a name (FNV-1a), for APIs that send none.
  static func stableID(for name: String) -> Int {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in name.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
    }
    return Int(truncatingIfNeeded: hash & 0x7FFF_FFFF)
  }
}

/// Where courses come from: ``BundledCourseService`` or ``HTTPCourseService``.
public protocol CourseService: Sendable {
  /// Every course.
  ///
  /// - Returns: The courses, in the service's order.
  /// - Throws: A ``ServiceError``.
  func courses() async throws(ServiceError) -> [Course]
}

/// The embedded course catalog.
public struct BundledCourseService: CourseService {
  /// The catalog, including lesson counts on both sides of the "many lessons" threshold.
  public static let catalog: [Course] = [
    Course(
      id: 1, name: "Instagram Firebase", numberOfLessons: 49, link: "https://example.org/instagram"),
    Course(id: 2, name: "Podcasts Course", numberOfLessons: 39),
    Course(id: 3, name: "Intermediate Training Core Data", numberOfLessons: 32),
    Course(id: 4, name: "Kindle Basic Training", numberOfLessons: 19),
    Course(id: 5, name: "Swift 并发编程入门", numberOfLessons: 30),
    Course(id: 6, name: "Swift 6 严格并发检查", numberOfLessons: 31),
    Course(id: 7, name: "Терминальные интерфейсы", numberOfLessons: 12),
    Course(id: 8, name: "Testing View Models", numberOfLessons: 0),
    Course(
      id: 9, name: "Linux Server-Side Swift", numberOfLessons: 57,
      imageURL: "https://img.example.org/courses/9.jpg"),
  ]

  /// Creates the service.
  public init() {}

  /// The catalog.
  public func courses() async throws(ServiceError) -> [Course] {
    Self.catalog
  }
}

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

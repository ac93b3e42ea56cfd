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
    Int(truncatingIfNeeded: StableHash.fnv1a(name) & 0x7FFF_FFFF)
  }
}

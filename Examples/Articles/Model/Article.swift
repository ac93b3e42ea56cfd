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

import ExampleSupport
import Foundation
import Tether

/// An article screen fed by seed 003's dictionary. Missing or wrongly typed keys fall back:
/// title "Untitled", body "", date "Date unknown", no thumbnail.
@MainActor
public final class ArticleViewViewModelFromDictionary: ArticleViewViewModel {
  /// Shown for a missing or non-text title.
  public static let untitled = "Untitled"
  /// Shown for a missing or unparseable date.
  public static let unknownDate = "Date unknown"

  /// The headline.
  public let title: String
  /// The text.
  public let body: String
  /// The date in the short style.
  public let date: String
  /// The thumbnail, `nil` until it has loaded.
  public var thumbnail: Property<Thumbnail?> { slot.image }
  /// What the thumbnail slot says while there is no image.
  public var thumbnailStatus: Property<String?> { slot.status }
  private let slot: ThumbnailSlot

  /// Formats `dictionary` defensively.
  ///
  /// - Parameters:
  ///   - dictionary: The article's keys and values.
  ///   - loader: Loads the thumbnail.
  ///   - dates: The date format.
  public init(
    _ dictionary: [String: JSONValue], loader: any ThumbnailLoader,
    dates: ArticleDateFormat = .init()
  ) {
    let title = dictionary["title"]?.stringValue ?? ""
    self.title = title.isEmpty ? Self.untitled : title
    body = dictionary["body"]?.stringValue ?? ""
    if let text = dictionary["date"]?.stringValue, let parsed = try? Date(text, strategy: .iso8601)
    {
      date = dates.string(from: parsed)
    } else {
      date = Self.unknownDate
    }
    let thumbnailText = dictionary["thumbnail"]?.stringValue ?? ""
    slot = ThumbnailSlot(
      url: thumbnailText.isEmpty ? nil : URL(string: thumbnailText), loader: loader)
  }

  /// The screen appeared: start loading the thumbnail (once).
  public func viewDidAppear() async {
    await slot.load()
  }
}

import ExampleSupport
import Foundation
import Tether

/// An article screen fed by a typed ``Article`` (the seed's `ArticleViewViewModelFromArticle`).
@MainActor
public final class ArticleViewViewModelFromArticle: ArticleViewViewModel {
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

  /// Formats `article`.
  ///
  /// - Parameters:
  ///   - article: The article.
  ///   - loader: Loads the thumbnail.
  ///   - dates: The date format.
  public init(_ article: Article, loader: any ThumbnailLoader, dates: ArticleDateFormat = .init()) {
    title = article.title
    body = article.body
    date = dates.string(from: article.date)
    slot = ThumbnailSlot(url: article.thumbnail, loader: loader)
  }

  /// The screen appeared: start loading the thumbnail (once).
  public func viewDidAppear() async {
    await slot.load()
  }
}

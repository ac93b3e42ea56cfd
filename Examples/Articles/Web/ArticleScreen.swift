import Articles
import Foundation
import Tether
import TetherWeb

/// One article: headline, date, the thumbnail once it arrives (pushed to the page as a PNG),
/// and the body.
@MainActor
final class ArticleScreen: WebScreen {
  private let article: any ArticleViewViewModel
  /// The thumbnail as an inline PNG address, encoded once when it arrives (not per render).
  private let thumbnailURL: Property<String?>

  init(_ article: any ArticleViewViewModel) {
    self.article = article
    thumbnailURL = article.thumbnail.map { thumbnail in
      thumbnail.map { "data:image/png;base64," + Data($0.png()).base64EncodedString() }
    }
  }

  var body: Markup<Never> {
    vstack {
      h2 { article.title }
      p(.class("dim")) { article.date }
      image(
        source: thumbnailURL.value, description: "Thumbnail of \(article.title)",
        status: article.thumbnailStatus.value)
      p { article.body }
    }
  }
}

import Articles
import Foundation
import TetherWeb

/// One article: headline, date, the thumbnail once it arrives (pushed to the page as a PNG),
/// and the body.
@MainActor
final class ArticleScreen: WebScreen {
  private let article: any ArticleViewViewModel
  private let thumbnail: Image

  init(_ article: any ArticleViewViewModel) {
    self.article = article
    thumbnail = Image(
      source: article.thumbnail.map { thumbnail in
        thumbnail.map { "data:image/png;base64," + Data($0.png()).base64EncodedString() }
      },
      description: "Thumbnail of \(article.title)", status: article.thumbnailStatus)
  }

  var body: Markup<Never> {
    vstack {
      h2 { article.title }
      p(.class("dim")) { article.date }
      thumbnail
      p { article.body }
    }
  }
}

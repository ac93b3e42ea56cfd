import Articles
import Foundation
import TetherWeb

/// One article: headline, date, the thumbnail once it arrives (pushed to the page as a PNG),
/// and the body.
@MainActor
enum ArticleScreen {
  static func view(_ article: any ArticleViewViewModel) -> any WebView {
    VStack([
      Label(article.title, tag: "h2"),
      Label(article.date, className: "dim"),
      Image(
        source: article.thumbnail.map { thumbnail in
          thumbnail.map { "data:image/png;base64," + Data($0.png()).base64EncodedString() }
        },
        description: "Thumbnail of \(article.title)", status: article.thumbnailStatus),
      Label(article.body),
    ])
  }
}

import Articles
import TetherTerminal

/// One article: headline, date, the thumbnail once it arrives (a custom drawing), and the body.
final class ArticleScreen: TerminalScreen {
  typealias Action = Never
  private let article: any ArticleViewViewModel
  private let thumbnail: ShadedImageView<Thumbnail>

  init(_ article: any ArticleViewViewModel) {
    self.article = article
    thumbnail = ShadedImageView(image: article.thumbnail, status: article.thumbnailStatus)
  }

  var body: TerminalMarkup<Never> {
    vstack {
      text(article.title).bold()
      text(article.date).dim()
      text("")
      canvas(thumbnail)
      text("")
      text(article.body, wraps: true)
    }
  }
}

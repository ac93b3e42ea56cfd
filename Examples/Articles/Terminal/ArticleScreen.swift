import Articles
import TetherTerminal

/// One article: headline, date, the thumbnail once it arrives, and the body.
@MainActor
enum ArticleScreen {
  static func view(_ article: any ArticleViewViewModel) -> any TerminalView {
    Screenful(
      VStack([
        Label(article.title, style: bold),
        Label(article.date, style: dim),
        Label(""),
        ShadedImageView(image: article.thumbnail, status: article.thumbnailStatus),
        Label(""),
        Label(article.body, wraps: true),
      ]))
  }
}

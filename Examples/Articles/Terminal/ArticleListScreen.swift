import Articles
import Tether
import TetherFlow
import TetherTerminal

/// The Articles: headline and date per row.
final class ArticleListScreen: TerminalScreen {
  private let articles: ArticleListViewModel
  private let tick: Property<Int>
  private let reload: TerminalCall

  init(_ articles: ArticleListViewModel, tick: Property<Int>) {
    self.articles = articles
    self.tick = tick
    reload = asyncAction { await articles.reloadRequested() }
  }

  var body: TerminalMarkup<TerminalCall> {
    vstack {
      loadStatus(
        isLoading: articles.isLoading.value, errorMessage: articles.errorMessage.value,
        loadingMessage: "Loading articles…", tick: tick)
      list(articles.rows, label: "Articles", rowHeight: 2, onChoose: articles.userSelected(row:)) {
        row in
        text(row.title)
        text(row.date).dim()
      }
    }
    .onKey("r", reload)
  }
}

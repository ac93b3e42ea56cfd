import Articles
import Tether
import TetherFlow
import TetherTerminal

/// The Articles: headline and date per row.
final class ArticleListScreen: TerminalScreen {
  enum Action { case choose(Int), reload }
  private let articles: ArticleListViewModel
  private let tick: Property<Int>
  private let reload: () -> Void

  init(_ articles: ArticleListViewModel, tick: Property<Int>) {
    self.articles = articles
    self.tick = tick
    reload = asyncAction { await articles.reloadRequested() }
  }

  var body: TerminalMarkup<Action> {
    vstack {
      loadStatus(
        isLoading: articles.isLoading.value, errorMessage: articles.errorMessage.value,
        loadingMessage: "Loading articles…", tick: tick)
      list(articles.rows, label: "Articles", rowHeight: 2, onChoose: { .choose($0) }) { row in
        text(row.title)
        text(row.date).dim()
      }
    }
    .onKey("r", .reload)
  }

  func handle(_ action: Action) {
    switch action {
    case .choose(let row): articles.userSelected(row: row)
    case .reload: reload()
    }
  }
}

import Articles
import Tether
import TetherFlow
import TetherWeb

/// The Articles: headline and date per row.
@MainActor
final class ArticleListScreen: WebScreen {
  enum Action { case choose(Int), retry }

  private let articles: ArticleListViewModel
  private let reload: () -> Void

  init(_ articles: ArticleListViewModel) {
    self.articles = articles
    reload = asyncAction { await articles.reloadRequested() }
  }

  var body: Markup<Action> {
    vstack {
      loadStatus(
        isLoading: articles.isLoading.value, errorMessage: articles.errorMessage.value,
        loadingMessage: "Loading articles…", retry: .retry)
      list(articles.rows, onChoose: { .choose($0) }) { row in
        span(.class("title")) { row.title }
        span(.class("detail")) { row.date }
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .choose(let row): articles.userSelected(row: row)
    case .retry: reload()
    }
  }
}

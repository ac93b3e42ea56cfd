import Articles
import Tether
import TetherFlow
import TetherWeb

/// The Articles: headline and date per row.
@MainActor
final class ArticleListScreen: WebScreen {
  private let status: LoadStatus
  private let rows: ListView<ArticleListViewModel.Row>

  init(_ list: ArticleListViewModel) {
    status = LoadStatus(
      isLoading: list.isLoading, errorMessage: list.errorMessage,
      loadingMessage: "Loading articles…", retry: asyncAction { await list.reloadRequested() })
    rows = ListView(rows: list.$rows, onChoose: { list.userSelected(row: $0) }) { row in
      span(.class("title")) { row.title }
      span(.class("detail")) { row.date }
    }
  }

  var embeddedViews: [any WebView] { [rows] }

  var body: Markup<Never> {
    vstack {
      status
      rows
    }
  }
}

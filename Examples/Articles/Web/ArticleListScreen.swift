import Articles
import TetherFlow
import TetherWeb

/// The Articles: headline and date per row.
@MainActor
enum ArticleListScreen {
  static func view(_ list: ArticleListViewModel) -> any WebView {
    VStack([
      LoadStatus(
        isLoading: list.isLoading, errorMessage: list.errorMessage,
        loadingMessage: "Loading articles…", retry: asyncAction { await list.reloadRequested() }),
      ListView(rows: list.$rows, format: { [$0.title, $0.date] }) { list.userSelected(row: $0) },
    ])
  }
}

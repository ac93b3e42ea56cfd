import Articles
import Tether
import TetherFlow
import TetherTerminal

/// The Articles: headline and date per row.
@MainActor
enum ArticleListScreen {
  static func view(_ list: ArticleListViewModel, tick: Property<Int>) -> any TerminalView {
    Screenful(
      VStack([
        loadStatus(
          isLoading: list.isLoading, errorMessage: list.errorMessage,
          loadingMessage: "Loading articles…", tick: tick),
        ListView(rows: list.$rows, rowHeight: 2, format: { row, _ in [row.title, row.date] }) {
          list.userSelected(row: $0)
        },
      ]),
      keys: [.character("r"): asyncAction { await list.reloadRequested() }])
  }
}

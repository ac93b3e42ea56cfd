import Gallery
import Tether
import TetherFlow
import TetherTerminal

/// The Gallery's popular photos: title and date · description per row, paging as the
/// selection nears the end.
@MainActor
enum PhotoListScreen {
  static func view(_ list: PhotoListViewModel, tick: Property<Int>) -> any TerminalView {
    Screenful(
      VStack([
        loadStatus(
          isLoading: list.isLoading, errorMessage: list.errorMessage,
          loadingMessage: "Loading popular photos…", tick: tick),
        OptionalLabel(list.$emptyStateMessage, style: dim),
        ListView(
          rows: list.$rows, rowHeight: 2,
          format: { cell, _ in [cell.titleText, cell.subtitleText] },
          onSelectionChange: { row in Task { await list.userReached(row: row) } },
          onChoose: { list.userSelected(row: $0) }),
        Label(list.statusText.map { "\($0) · Enter open · r refresh" }, style: dim),
      ]),
      keys: [.character("r"): asyncAction { await list.reloadRequested() }])
  }
}

import Gallery
import TetherFlow
import TetherWeb

/// The Gallery's popular photos: title and date · description per row, paging as the
/// selection nears the end.
@MainActor
enum PhotoListScreen {
  static func view(_ list: PhotoListViewModel) -> any WebView {
    VStack([
      TextField(
        list.searchText, placeholder: "Search titles", label: "Search photo titles",
        className: "search"),
      LoadStatus(
        isLoading: list.$isLoading, errorMessage: list.$errorMessage,
        loadingMessage: "Loading popular photos…",
        retry: asyncAction { await list.reloadRequested() }),
      OptionalLabel(list.$emptyStateMessage, className: "dim"),
      ListView(
        rows: list.$rows, format: { [$0.titleText, $0.subtitleText] },
        onSelectionChange: { row in Task { await list.userReached(row: row) } },
        onChoose: { list.userSelected(row: $0) }),
      Label(list.$statusText, className: "dim"),
    ])
  }
}

import Gallery
import Tether
import TetherFlow
import TetherTerminal

/// The Gallery's popular photos: title and date · description per row, paging as the
/// selection nears the end.
@MainActor
enum PhotoListScreen {
  static func view(_ list: PhotoListViewModel, tick: Property<Int>) -> any TerminalView {
    let searchShown = list.$isSearching.combineLatest(with: list.searchText).map {
      searching, text in searching || !text.isEmpty
    }
    return Screenful(
      VStack([
        // `/` searches the titles; Enter keeps the search, Escape clears it.
        Shown(
          when: searchShown,
          TextField(
            list.searchText, placeholder: "Search titles", isFocused: list.$isSearching,
            onSubmit: { list.searchEnded() }, onCancel: { list.searchCancelled() })),
        loadStatus(
          isLoading: list.$isLoading, errorMessage: list.$errorMessage,
          loadingMessage: "Loading popular photos…", tick: tick),
        OptionalLabel(list.$emptyStateMessage, style: dim),
        ListView(
          rows: list.$rows, rowHeight: 2,
          format: { cell, _ in [cell.titleText, cell.subtitleText] },
          onSelectionChange: { row in Task { await list.userReached(row: row) } },
          onChoose: { list.userSelected(row: $0) }),
        Label(list.$statusText.map { "\($0) · Enter open · / search · r refresh" }, style: dim),
      ]),
      keys: [
        .character("r"): asyncAction { await list.reloadRequested() },
        .character("/"): { list.searchRequested() },
      ])
  }
}

import Gallery
import Tether
import TetherFlow
import TetherTerminal

/// The Gallery's popular photos: title and date · description per row, paging as the
/// selection nears the end.
@MainActor
enum PhotoListScreen {
  static func view(_ list: PhotoListViewModel, tick: Property<Int>) -> any TerminalView {
    let added = list.added
    // A terminal sends a photo by its path: the same rules as the browser's file input.
    let reader = TerminalFileReader()
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
        // `a` adds a photo by its path; the field takes the keys before the list does.
        Shown(
          when: added.$isTypingPath,
          TextField(
            added.pathText, placeholder: "Path to a photo", isFocused: added.$isTypingPath,
            onSubmit: { reader.offer(path: added.pathEntered(), to: added.files) },
            onCancel: { added.pathCancelled() })),
        loadStatus(
          isLoading: list.$isLoading, errorMessage: list.$errorMessage,
          loadingMessage: "Loading popular photos…", tick: tick),
        OptionalLabel(list.$emptyStateMessage, style: dim),
        ListView(
          rows: list.$rows, rowHeight: 2,
          format: { cell, _ in [cell.titleText, cell.subtitleText] },
          onSelectionChange: { row in Task { await list.userReached(row: row) } },
          onChoose: { list.userSelected(row: $0) }),
        Label(
          list.$statusText.map { "\($0) · Enter open · / search · a add photo · r refresh" },
          style: dim),
        OptionalLabel(added.entryLines, style: dim),
        OptionalLabel(added.addedLine),
      ]),
      keys: [
        .character("r"): asyncAction { await list.reloadRequested() },
        .character("/"): { list.searchRequested() },
        .character("a"): { added.addRequested() },
      ])
  }
}

import Gallery
import Tether
import TetherFlow
import TetherTerminal

/// The Gallery's popular photos: title and date · description per row, paging as the
/// selection nears the end. `/` searches the titles (Enter keeps the search, Escape clears
/// it); `a` adds a photo by its path, with the browser's file-input rules.
final class PhotoListScreen: TerminalScreen {
  enum Action {
    case choose(Int), reached(Int), reload, search, searchEnded, searchCancelled
    case add, pathEntered, pathCancelled
  }

  private let photos: PhotoListViewModel
  private let tick: Property<Int>
  private let reload: () -> Void
  private let reader = TerminalFileReader()

  init(_ photos: PhotoListViewModel, tick: Property<Int>) {
    self.photos = photos
    self.tick = tick
    reload = asyncAction { await photos.reloadRequested() }
  }

  var body: TerminalMarkup<Action> {
    let added = photos.added
    vstack {
      if photos.isSearching || !photos.searchText.value.isEmpty {
        textField(photos.searchText, placeholder: "Search titles")
          .onSubmit(.searchEnded).onCancel(.searchCancelled).focused(photos.isSearching)
      }
      if added.isTypingPath {
        textField(added.pathText, placeholder: "Path to a photo")
          .onSubmit(.pathEntered).onCancel(.pathCancelled).focused(true)
      }
      loadStatus(
        isLoading: photos.isLoading, errorMessage: photos.errorMessage,
        loadingMessage: "Loading popular photos…", tick: tick)
      if let empty = photos.emptyStateMessage { text(empty).dim() }
      list(
        photos.rows, label: "Photos", rowHeight: 2, onChoose: { .choose($0) },
        onMove: { .reached($0) }
      ) { cell in
        text(cell.titleText)
        text(cell.subtitleText).dim()
      }
      .focused(!photos.isSearching && !added.isTypingPath)
      text("\(photos.statusText) · Enter open · / search · a add photo · r refresh").dim()
      if let entries = added.entryLines.value { text(entries).dim() }
      if let line = added.addedLine.value { text(line) }
    }
    .onKey("r", .reload).onKey("/", .search).onKey("a", .add)
  }

  func handle(_ action: Action) {
    let added = photos.added
    switch action {
    case .choose(let row): photos.userSelected(row: row)
    case .reached(let row): Task { await photos.userReached(row: row) }
    case .reload: reload()
    case .search: photos.searchRequested()
    case .searchEnded: photos.searchEnded()
    case .searchCancelled: photos.searchCancelled()
    case .add: added.addRequested()
    case .pathEntered: reader.offer(path: added.pathEntered(), to: added.files)
    case .pathCancelled: added.pathCancelled()
    }
  }
}

import Gallery
import Tether
import TetherFlow
import TetherWeb

/// The Gallery's popular photos: title and date · description per row, paging as the
/// selection nears the end.
@MainActor
final class PhotoListScreen: WebScreen {
  private let list: PhotoListViewModel
  private let status: LoadStatus
  private let rows: ListView<PhotoListCellViewModel>

  init(_ list: PhotoListViewModel) {
    self.list = list
    status = LoadStatus(
      isLoading: list.$isLoading, errorMessage: list.$errorMessage,
      loadingMessage: "Loading popular photos…",
      retry: asyncAction { await list.reloadRequested() })
    rows = ListView(
      rows: list.$rows,
      onSelectionChange: { row in Task { await list.userReached(row: row) } },
      onChoose: { list.userSelected(row: $0) }
    ) { row in
      span(.class("title")) { row.titleText }
      span(.class("detail")) { row.subtitleText }
    }
  }

  var embeddedViews: [any WebView] { [rows] }

  var body: Markup<Never> {
    vstack {
      textField(
        list.searchText, type: .search, placeholder: "Search titles",
        label: "Search photo titles", .class("search"))
      status
      if let message = list.emptyStateMessage {
        p(.class("dim")) { message }
      }
      rows
      p(.class("dim")) { list.statusText }
    }
  }
}

import Gallery
import Tether
import TetherFlow
import TetherWeb

/// The Gallery's popular photos: title and date · description per row, paging as the
/// selection nears the end.
@MainActor
final class PhotoListScreen: WebScreen {
  enum Action { case reached(Int), choose(Int), retry }

  private let photos: PhotoListViewModel
  private let reload: () -> Void
  /// Pages as the selection nears the end; a move that comes while a page loads replaces the
  /// wait for it.
  private let reach: Command<Int, Void, Never>

  init(_ photos: PhotoListViewModel) {
    self.photos = photos
    reload = asyncAction { await photos.reloadRequested() }
    reach = Command(reentry: .replace) { row in await photos.userReached(row: row) }
  }

  var body: Markup<Action> {
    vstack {
      textField(
        photos.searchText, type: .search, placeholder: "Search titles",
        label: "Search photo titles", .class("search"))
      loadStatus(
        isLoading: photos.isLoading, errorMessage: photos.errorMessage,
        loadingMessage: "Loading popular photos…", retry: .retry)
      if let message = photos.emptyStateMessage {
        p(.class("dim")) { message }
      }
      list(photos.rows, onSelect: { .reached($0) }, onChoose: { .choose($0) }) { row in
        span(.class("title")) { row.titleText }
        span(.class("detail")) { row.subtitleText }
      }
      p(.class("dim")) { photos.statusText }
      // Photos from the person's device, after the list: the list's elements keep their ids.
      section(.class("added-photos"), .ariaLabel("Your photos")) {
        fileInput(photos.added.files, label: photos.added.inputLabel, .class("add-photo"))
        if let problem = photos.added.problem {
          p(.class("error"), .role("alert")) { problem }
        }
        for photo in photos.added.photos {
          figure(.class("added-photo")) {
            image(source: photo.imageSource, description: photo.name)
            figcaption { photo.name }
          }
        }
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .reached(let row): reach.start(row)
    case .choose(let row): photos.userSelected(row: row)
    case .retry: reload()
    }
  }
}

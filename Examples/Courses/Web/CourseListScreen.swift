import Courses
import Tether
import TetherFlow
import TetherWeb

/// The Courses: the name, then the lesson count (and ⓘ).
@MainActor
final class CourseListScreen: WebScreen {
  private let status: LoadStatus
  private let rows: ListView<CourseCellViewModel>

  init(_ list: CourseListViewModel) {
    status = LoadStatus(
      isLoading: list.isLoading, errorMessage: list.errorMessage,
      loadingMessage: "Loading courses…", retry: asyncAction { await list.reloadRequested() })
    rows = ListView(rows: list.$rows, onChoose: { list.userSelected(row: $0) }) { row in
      span(.class("title")) { row.titleText }
      span(.class("detail")) { row.detailText + row.accessory.textMark }
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

import Courses
import TetherFlow
import TetherWeb

/// The Courses: the name, then the lesson count (and ⓘ).
@MainActor
enum CourseListScreen {
  static func view(_ list: CourseListViewModel) -> any WebView {
    VStack([
      LoadStatus(
        isLoading: list.isLoading, errorMessage: list.errorMessage,
        loadingMessage: "Loading courses…", retry: asyncAction { await list.reloadRequested() }),
      ListView(
        rows: list.$rows,
        format: { [$0.titleText, $0.detailText + $0.accessory.textMark] }
      ) { list.userSelected(row: $0) },
    ])
  }
}

import Courses
import Tether
import TetherFlow
import TetherTerminal

/// The Courses: the name on the left, the lesson count (and ⓘ) on the right.
@MainActor
enum CourseListScreen {
  static func view(_ list: CourseListViewModel, tick: Property<Int>) -> any TerminalView {
    Screenful(
      VStack([
        loadStatus(
          isLoading: list.isLoading, errorMessage: list.errorMessage,
          loadingMessage: "Loading courses…", tick: tick),
        ListView(rows: list.$rows, format: row) { list.userSelected(row: $0) },
      ]),
      keys: [.character("r"): asyncAction { await list.reloadRequested() }])
  }

  /// One line: the title, cut to leave room for the detail text and its accessory mark.
  private static func row(_ cell: CourseCellViewModel, width: Int) -> [String] {
    let right = cell.detailText + cell.accessory.textMark
    let left = cell.titleText.truncated(toWidth: max(1, width - DisplayWidth.of(right) - 2))
    let gap = max(1, width - DisplayWidth.of(left) - DisplayWidth.of(right))
    return [left + String(repeating: " ", count: gap) + right]
  }
}

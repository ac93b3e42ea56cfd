import Courses
import TetherWeb

/// The Courses: the name, then the lesson count (and ⓘ).
@MainActor
enum CourseListScreen {
  static func view(_ list: CourseListViewModel) -> any WebView {
    Screenful(
      VStack([
        LoadStatus(
          isLoading: list.isLoading, errorMessage: list.errorMessage,
          loadingMessage: "Loading courses…", retry: send { await list.reloadRequested() }),
        ListView(
          rows: list.rows,
          format: { [$0.titleText, $0.detailText + accessoryMark[$0.accessory, default: ""]] }
        ) { list.userSelected(row: $0) },
      ]),
      onAppear: send { await list.viewDidLoad() })
  }

  private static let accessoryMark: [CourseAccessory: String] = [.detailButton: " ⓘ"]
}

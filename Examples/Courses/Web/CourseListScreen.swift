import Courses
import Tether
import TetherFlow
import TetherWeb

/// The Courses: the name, then the lesson count (and ⓘ).
@MainActor
final class CourseListScreen: WebScreen {
  enum Action { case choose(Int), retry }

  private let courses: CourseListViewModel
  private let reload: () -> Void

  init(_ courses: CourseListViewModel) {
    self.courses = courses
    reload = asyncAction { await courses.reloadRequested() }
  }

  var body: Markup<Action> {
    vstack {
      loadStatus(
        isLoading: courses.isLoading.value, errorMessage: courses.errorMessage.value,
        loadingMessage: "Loading courses…", retry: .retry)
      list(courses.rows, onChoose: { .choose($0) }) { row in
        span(.class("title")) { row.titleText }
        span(.class("detail")) { row.detailText + row.accessory.textMark }
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .choose(let row): courses.userSelected(row: row)
    case .retry: reload()
    }
  }
}

import Courses
import Tether
import TetherFlow
import TetherTerminal

/// The Courses: the name on the left, the lesson count (and ⓘ) on the right.
final class CourseListScreen: TerminalScreen {
  private let courses: CourseListViewModel
  private let tick: Property<Int>
  private let reload: TerminalCall

  init(_ courses: CourseListViewModel, tick: Property<Int>) {
    self.courses = courses
    self.tick = tick
    reload = asyncAction { await courses.reloadRequested() }
  }

  var body: TerminalMarkup<TerminalCall> {
    vstack {
      loadStatus(
        isLoading: courses.isLoading.value, errorMessage: courses.errorMessage.value,
        loadingMessage: "Loading courses…", tick: tick)
      list(courses.rows, label: "Courses", onChoose: courses.userSelected(row:)) { cell in
        hstack {
          text(cell.titleText)
          spacer()
          text(cell.detailText + cell.accessory.textMark)
        }
      }
    }
    .onKey("r", reload)
  }
}

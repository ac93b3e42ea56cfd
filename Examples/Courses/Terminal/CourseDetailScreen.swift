import Courses
import TetherTerminal

/// A course: its name, lesson count and link. Removing is destructive: focus never starts on it,
/// and the flow asks for a confirmation first.
final class CourseDetailScreen: TerminalScreen {
  private let detail: CourseDetailViewModel

  init(_ detail: CourseDetailViewModel) { self.detail = detail }

  var body: TerminalMarkup<TerminalCall> {
    vstack {
      text(detail.titleText).bold()
      text(detail.lessonsText)
      text(detail.linkText).dim()
      button(detail.removeTitle, key: "x", role: .destructive).onPress(detail.removeRequested)
      button(detail.moreTitle, key: "m").onPress(detail.moreRequested)
    }
  }
}

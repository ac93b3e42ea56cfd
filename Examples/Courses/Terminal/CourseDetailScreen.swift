import Courses
import TetherTerminal

/// A course: its name, lesson count and link.
@MainActor
enum CourseDetailScreen {
  static func view(_ detail: CourseDetailViewModel) -> any TerminalView {
    VStack([
      Label(detail.titleText, style: bold), Label(detail.lessonsText),
      Label(detail.linkText, style: dim),
      Button(detail.removeTitle, key: "x", action: detail.removeRequested),
      Button(detail.moreTitle, key: "m", action: detail.moreRequested),
    ])
  }
}

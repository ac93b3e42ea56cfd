import Courses
import TetherWeb

/// A course: its name, lesson count and link.
@MainActor
enum CourseDetailScreen {
  static func view(_ detail: CourseDetailViewModel) -> any WebView {
    VStack([
      Label(detail.titleText, tag: "h2"), Label(detail.lessonsText),
      Label(detail.linkText, className: "dim"),
      Button(detail.removeTitle) { detail.removeRequested() },
    ])
  }
}

import Courses
import TetherWeb

/// A course: its name, lesson count and link.
@MainActor
final class CourseDetailScreen: WebScreen {
  enum Action { case remove, more }

  private let detail: CourseDetailViewModel

  init(_ detail: CourseDetailViewModel) {
    self.detail = detail
  }

  var body: Markup<Action> {
    vstack {
      h2 { detail.titleText }
      p { detail.lessonsText }
      p(.class("dim")) { detail.linkText }
      hstack {
        button(detail.removeTitle).onClick(.remove)
        button(detail.moreTitle).onClick(.more)
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .remove: detail.removeRequested()
    case .more: detail.moreRequested()
    }
  }
}

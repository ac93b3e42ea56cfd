import Courses
import Tether
import TetherFlow

/// The Courses: choosing a course shows the detail view model the list created.
///
/// Paths: `courses`, then `course/<id>` for a detail.
@MainActor
public final class CoursesFlow: FlowController {
  private let services: ShowcaseServices
  private let lifetime = Lifetime()
  private weak var list: CourseListViewModel?

  /// Creates the flow.
  ///
  /// - Parameter services: Where the data comes from.
  public init(services: ShowcaseServices) {
    self.services = services
  }

  /// Builds the course list and wires its route.
  public func start(on navigator: ShowcaseNavigator) -> ShowcaseScreen {
    let list = CourseListViewModel(service: services.courses)
    self.list = list
    list.route.observe { [weak navigator] route in
      switch route {
      case .detail(let detail):
        // The detail's alert is observed for as long as its screen is shown: the screen owns
        // the token.
        let alerts = detail.alert.observe { [weak navigator] alert in
          navigator?.present(Self.screenAlert(for: alert))
        }
        navigator?.push(
          Screen(
            .courseDetail(detail), title: detail.titleText,
            path: ["course", "\(detail.course.id)"], owner: alerts))
      }
    }
    .store(in: lifetime)
    // A pressed button's action, data in the alert: it also reaches a flow rebuilt on another
    // server after the one that showed the alert died (a web session's resume).
    navigator.alertActions(CoursesAction.self).observe { [weak navigator, weak list] action in
      switch action {
      case .remove(let id):
        list?.removalConfirmed(id: id)
        navigator?.pop()  // the alert was over the course's detail: back to the list
      case .moveToTop(let id):
        list?.moveToTopConfirmed(id: id)
        navigator?.pop()
      }
    }
    .store(in: lifetime)
    return Screen(
      .courseList(list), title: list.title, path: ["courses"], owner: self,
      onAppear: { [weak list] in await list?.viewDidLoad() })
  }

  /// What the Courses' alert buttons ask of the flow.
  public enum CoursesAction: Codable, Equatable, Sendable {
    /// Remove the course with this id from the list.
    case remove(id: Int)
    /// Move the course with this id to the top of the list.
    case moveToTop(id: Int)
  }

  /// The alert for a detail's `alert`: a confirmation whose Remove button carries its action,
  /// or a confirmation dialog of the course's actions.
  public static func screenAlert(for alert: CourseDetailViewModel.Alert) -> ScreenAlert {
    switch alert {
    case .confirmRemoval(let id, let name):
      ScreenAlert(
        title: "Remove “\(name)”?", message: "It leaves the list until the next visit.",
        buttons: [
          ScreenAlert.Button("Remove", role: .destructive, action: CoursesAction.remove(id: id)),
          ScreenAlert.Button("Cancel", role: .cancel),
        ])
    case .actions(let id, let name):
      // A choice among several things to do: a confirmation dialog, its actions one under
      // another. Enter starts on Move to the top; Remove is reached with ↓ or Tab.
      ScreenAlert(
        title: "“\(name)”", message: "",
        buttons: [
          ScreenAlert.Button(
            "Move to the top", role: .confirm, action: CoursesAction.moveToTop(id: id)),
          ScreenAlert.Button(
            "Remove from list", role: .destructive, action: CoursesAction.remove(id: id)),
          ScreenAlert.Button("Cancel", role: .cancel),
        ], style: .confirmationDialog)
    }
  }

  /// `course/<id>` opens that course's detail once the catalog has loaded.
  public func restore(_ path: ArraySlice<String>, on navigator: ShowcaseNavigator)
    async throws(NavigationError)
  {
    guard !path.isEmpty else { return }
    let id = try path.identifier(named: "course")
    guard let list else { throw .unavailable("course/\(id)", reason: "The list is gone.") }
    do {
      try await list.openRequested(id: id)
    } catch {
      throw .unavailable("course/\(id)", reason: error.reason(for: "course \(id)"))
    }
  }
}

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
    list.route.observe { [weak navigator] detail in
      navigator?.push(
        Screen(
          .courseDetail(detail), title: detail.titleText, path: ["course", "\(detail.course.id)"]))
    }
    .store(in: lifetime)
    return Screen(
      .courseList(list), title: list.title, path: ["courses"], owner: self,
      onAppear: { [weak list] in await list?.viewDidLoad() })
  }

  /// `course/<id>` opens that course's detail once the catalog has loaded.
  public func restore(_ path: ArraySlice<String>, on navigator: ShowcaseNavigator)
    async throws(NavigationError)
  {
    guard !path.isEmpty else { return }
    let id = try path.identifier(named: "course")
    guard let list else { throw .unavailable("course/\(id)", reason: "The list is gone.") }
    guard await list.openRequested(id: id) else {
      throw .unavailable(
        "course/\(id)",
        reason: list.errorMessage.value.map { "Courses could not be loaded: \($0)" }
          ?? "There is no course \(id).")
    }
  }
}

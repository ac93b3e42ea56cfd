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
        navigator?.push(
          Screen(
            .courseDetail(detail), title: detail.titleText,
            path: ["course", "\(detail.course.id)"]))
      }
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
    do {
      try await list.openRequested(id: id)
    } catch {
      throw .unavailable("course/\(id)", reason: error.reason(for: "course \(id)"))
    }
  }
}

import ExampleSupport
import Foundation
import Tether

/// The course list screen.
@MainActor
public final class CourseListViewModel {
  /// The screen's title.
  public let title = "Courses"

  private let load = LoadCycle()
  /// Whether the courses are loading.
  public let isLoading: Property<Bool>
  /// One row per course.
  @Output public private(set) var rows: [CourseCellViewModel] = []
  /// Why the last load failed, or `nil`.
  public let errorMessage: Property<String?>
  /// Where the list goes next.
  public enum Route {
    /// The detail screen of a chosen course, created by this view model.
    case detail(CourseDetailViewModel)
  }
  /// Where to go for a chosen course.
  @Event public var route: Signal<Route>

  private let service: any CourseService
  private var courses: [Course] = []
  private var hasLoaded = false

  /// Creates the list.
  ///
  /// - Parameter service: Where courses come from.
  public init(service: any CourseService) {
    isLoading = load.isLoading
    errorMessage = load.errorMessage
    self.service = service
  }

  /// The screen appeared: load the courses.
  public func viewDidLoad() async {
    await load.run { [self] () async throws(ServiceError) in
      courses = try await service.courses()
      hasLoaded = true
      rows = courses.map(CourseCellViewModel.init)
    }
  }

  /// The user asked to load again (after an error, or to refresh).
  public func reloadRequested() async {
    await viewDidLoad()
  }

  /// A link asked for the course with `id`: load the courses if needed (or wait for the load in
  /// flight), then route to it.
  ///
  /// - Parameter id: The course's id.
  /// - Throws: `OpenError.notFound` for an id no course has, `OpenError.unavailable` when the
  ///   courses could not be loaded.
  public func openRequested(id: Int) async throws(OpenError) {
    await load.settled()
    if !hasLoaded { await viewDidLoad() }
    if !hasLoaded, let error = load.lastError { throw .unavailable(error) }
    guard let index = courses.firstIndex(where: { $0.id == id }) else { throw .notFound }
    userSelected(row: index)
  }

  /// The user confirmed removing the course with `id` from the list: its row goes (for this
  /// session; the catalog is unchanged).
  ///
  /// - Parameter id: The course's id; an id no row has changes nothing.
  public func removalConfirmed(id: Int) {
    guard courses.contains(where: { $0.id == id }) else { return }
    courses.removeAll { $0.id == id }
    rows = courses.map(CourseCellViewModel.init)
  }

  /// The user chose to move the course `id` to the top of the list (for this session).
  ///
  /// - Parameter id: The course's id; an id no row has changes nothing.
  public func moveToTopConfirmed(id: Int) {
    guard let index = courses.firstIndex(where: { $0.id == id }), index > 0 else { return }
    courses.insert(courses.remove(at: index), at: 0)
    rows = courses.map(CourseCellViewModel.init)
  }

  /// The user chose row `index`: create its detail view model and route to it.
  ///
  /// - Parameter index: The chosen row; rows outside the list are ignored.
  public func userSelected(row index: Int) {
    guard courses.indices.contains(index) else { return }
    _route.send(.detail(CourseDetailViewModel(course: courses[index])))
  }
}

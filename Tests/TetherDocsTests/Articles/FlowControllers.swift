import Testing
import TetherTesting

// The compiled companion of FlowControllers.md.
enum FlowControllersArticle {
  struct Course: Sendable, Equatable {
    var id: Int
    var name: String
  }

  protocol CourseService: Sendable {
    func courses() async throws -> [Course]
  }

  struct BundledCourses: CourseService {
    func courses() async throws -> [Course] {
      [Course(id: 1, name: "Swift"), Course(id: 2, name: "Concurrency")]
    }
  }

  struct Services: Sendable {
    var courses: any CourseService
    static func bundled() -> Services { Services(courses: BundledCourses()) }
  }

  @MainActor
  final class CourseDetailViewModel {
    let course: Course
    var titleText: String { course.name }
    init(course: Course) { self.course = course }
  }

  @MainActor
  final class CourseListViewModel {
    enum Route { case detail(CourseDetailViewModel) }
    enum Alert: Equatable { case confirmDelete(Course) }

    let title = "Courses"
    @Output private(set) var rows: [Course] = []
    @Event var route: Signal<Route>
    @Event var alert: Signal<Alert>
    private let service: any CourseService

    init(service: any CourseService) { self.service = service }

    func viewDidLoad() async { rows = (try? await service.courses()) ?? [] }

    func userSelected(row: Int) {
      guard rows.indices.contains(row) else { return }
      _route.send(.detail(CourseDetailViewModel(course: rows[row])))
    }

    func userAskedToDelete(row: Int) {
      guard rows.indices.contains(row) else { return }
      _alert.send(.confirmDelete(rows[row]))
    }

    func deleteConfirmed(id: Int) { rows.removeAll { $0.id == id } }

    /// A deep link's `course/<id>`.
    func openRequested(id: Int) async throws(NavigationError) {
      if rows.isEmpty { await viewDidLoad() }
      guard let row = rows.firstIndex(where: { $0.id == id }) else {
        throw .unavailable("course/\(id)", reason: "There is no course \(id).")
      }
      userSelected(row: row)
    }
  }

  /// What the courses flow's alert buttons ask of it: data, so a test compares it and a resumed
  /// web session keeps it.
  enum CourseAction: Codable, Equatable {
    case delete(id: Int)
  }

  @MainActor enum AppDestination {
    case courseList(CourseListViewModel)
    case courseDetail(CourseDetailViewModel)
  }

  @MainActor final class CoursesFlow: FlowController {
    private let services: Services
    private let lifetime = Lifetime()
    private(set) var list: CourseListViewModel?

    init(services: Services) { self.services = services }

    func start(on navigator: any Navigator<AppDestination>) -> Screen<AppDestination> {
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
      list.alert.observe { [weak navigator] alert in
        switch alert {
        case .confirmDelete(let course):
          navigator?.present(
            ScreenAlert(
              title: "Delete “\(course.name)”?", message: "This cannot be undone.",
              buttons: [
                ScreenAlert.Button(
                  "Delete", role: .destructive, action: CourseAction.delete(id: course.id)),
                ScreenAlert.Button("Cancel", role: .cancel),
              ]))
        }
      }
      .store(in: lifetime)
      navigator.alertActions(CourseAction.self).observe { [weak list] action in
        switch action {
        case .delete(let id): list?.deleteConfirmed(id: id)
        }
      }
      .store(in: lifetime)
      return Screen(
        .courseList(list), title: list.title, path: ["courses"], owner: self,
        onAppear: { [weak list] in await list?.viewDidLoad() })
    }

    func restore(_ path: ArraySlice<String>, on navigator: any Navigator<AppDestination>)
      async throws(NavigationError)
    {
      guard let first = path.first else { return }
      guard first == "course", path.count == 2, let id = Int(path[path.startIndex + 1]) else {
        throw .unknownComponent(path.joined(separator: "/"))
      }
      try await list?.openRequested(id: id)
    }
  }

  @MainActor @Suite struct Checks {
    @Test func aDeepLinkOpensTheCourseAndAStaleOneLandsOnTheList() async throws {
      let stack = ScreenStack<AppDestination>()
      try await CoursesFlow(services: .bundled()).open(ScreenPath(parsing: "/course/2"), on: stack)
      #expect(stack.path.description == "/courses/course/2")

      let path = ScreenPath(parsing: "/course/999")
      await CoursesFlow(services: .bundled()).openPresentingFailure(path, on: stack)
      #expect(stack.path.description == "/courses")
      #expect(stack.alert?.message == "/course/999: There is no course 999.")
    }

    @Test func theTestPressesTheConfirmationsButtons() async throws {
      let navigator = RecordingNavigator<AppDestination>()
      let flow = CoursesFlow(services: .bundled())
      flow.startFlow(on: navigator)
      let list = try #require(flow.list)
      await list.viewDidLoad()

      list.userAskedToDelete(row: 0)
      let alert = try #require(navigator.alert)
      #expect(alert.title == "Delete “Swift”?")
      #expect(alert.defaultButton?.title == "Cancel")  // Enter does not delete
      #expect(navigator.respond(to: alert.buttons[1]))  // Cancel: nothing is deleted
      #expect(list.rows.count == 2)

      list.userAskedToDelete(row: 0)
      #expect(navigator.alert?.buttons[0].action(as: CourseAction.self) == .delete(id: 1))
      #expect(navigator.respond(to: try #require(navigator.alert?.buttons[0])))
      #expect(list.rows.map(\.name) == ["Concurrency"])
      #expect(navigator.alert == nil)
    }

    @Test func poppingTheFlowsScreenReleasesIt() async throws {
      let navigator = RecordingNavigator<AppDestination>()
      navigator.setRoot(
        Screen(
          .courseList(CourseListViewModel(service: BundledCourses())),
          title: "Home"))
      try await withLeakTracking { leaks in
        let flow = leaks.track(CoursesFlow(services: .bundled()))
        navigator.push(flow.start(on: navigator))
        leaks.track(try #require(navigator.topScreen))
        navigator.pop()
      }
    }
  }

  enum SheetsThatAnswer {
    @MainActor final class SalutationPickerViewModel {
      @Event var chosen: Signal<String>
      func choose(_ salutation: String) { _chosen.send(salutation) }
    }

    @MainActor final class GreetingViewModel {
      enum Route { case salutations(SalutationPickerViewModel) }
      @Event var route: Signal<Route>
      private(set) var salutation = "Hello"
      func changeSalutationRequested() {
        _route.send(.salutations(SalutationPickerViewModel()))
      }
      func use(_ salutation: String) { self.salutation = salutation }
    }

    @MainActor enum AppDestination {
      case greeting(GreetingViewModel)
      case salutations(SalutationPickerViewModel)
    }

    @MainActor final class GreetingFlow {
      private let lifetime = Lifetime()

      func show(_ greeting: GreetingViewModel, on navigator: any Navigator<AppDestination>) {
        greeting.route.observe { [weak navigator, weak greeting] route in
          switch route {
          case .salutations(let picker):
            guard let navigator else { return }
            let sheet = Screen(
              AppDestination.salutations(picker), title: "Salutation", path: ["salutation"])
            Task { @MainActor in
              if let chosen = await navigator.presentSheet(sheet, until: picker.chosen) {
                greeting?.use(chosen)
              }
            }
          }
        }
        .store(in: lifetime)
        navigator.push(Screen(.greeting(greeting), title: "Greeting", path: ["greeting"]))
      }
    }

    @MainActor @Test static func theFlowAwaitsThePickersChoice() async {
      let navigator = RecordingNavigator<AppDestination>()
      let greeting = GreetingViewModel()
      let flow = GreetingFlow()
      flow.show(greeting, on: navigator)
      greeting.changeSalutationRequested()
      await expectEventually { navigator.sheet != nil }
      #expect(navigator.path == "/greeting/salutation")
      guard case .salutations(let picker)? = navigator.sheet?.destination else {
        Issue.record("no picker")
        return
      }
      picker.choose("Howdy")
      await expectEventually { greeting.salutation == "Howdy" }
      #expect(navigator.sheet == nil)
    }
  }
}

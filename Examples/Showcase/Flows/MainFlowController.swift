import Tether
import TetherFlow

/// Seed 004's `MainFlowController`: the home menu, and a child flow per app. TetherFlow's
/// `startFlow(on:)` shows it as a stack's root; `open(_:on:)` and `openPresentingFailure(_:on:)`
/// rebuild a whole stack from a path (`/gallery/photo/230200335`), for deep links and reloads.
@MainActor
public final class MainFlowController: FlowController {
  private let services: ShowcaseServices
  private let todoList: String
  private let lifetime = Lifetime()
  private var home: HomeViewModel?

  /// Creates the main flow.
  ///
  /// - Parameters:
  ///   - services: The services injected into every child flow.
  ///   - todoList: Whose TodoMVC list to show: a browser's id on the web, the user's name in a
  ///     terminal.
  public init(services: ShowcaseServices, todoList: String = "local") {
    self.services = services
    self.todoList = todoList
  }

  /// Builds the home menu; choosing an app starts its flow on top.
  public func start(on navigator: ShowcaseNavigator) -> ShowcaseScreen {
    let home = HomeViewModel()
    self.home = home
    let services = self.services
    let todoList = self.todoList
    home.route.observe { [weak navigator] app in
      guard let navigator else { return }
      navigator.push(
        Self.flow(for: app, services: services, todoList: todoList).start(on: navigator))
    }
    .store(in: lifetime)
    return Screen(.home(home), title: home.title, owner: self)
  }

  /// `<app>` starts that app's flow; the rest of the path goes to it.
  public func restore(_ path: ArraySlice<String>, on navigator: ShowcaseNavigator)
    async throws(NavigationError)
  {
    guard let first = path.first else { return }
    guard let app = ShowcaseApp(pathComponent: first) else { throw .unknownComponent(first) }
    let flow = Self.flow(for: app, services: services, todoList: todoList)
    navigator.push(flow.start(on: navigator))
    try await flow.restore(path.dropFirst(), on: navigator)
  }

  /// The child flow for `app`.
  static func flow(for app: ShowcaseApp, services: ShowcaseServices, todoList: String)
    -> any FlowController<
      ShowcaseDestination
    >
  {
    switch app {
    case .gallery: GalleryFlow(services: services)
    case .courses: CoursesFlow(services: services)
    case .profile: ProfileFlow(services: services)
    case .articles: ArticlesFlow(services: services)
    case .entry: EntryFlow(services: services)
    case .todos: TodosFlow(store: services.todos, list: todoList, pubsub: services.pubsub)
    }
  }
}

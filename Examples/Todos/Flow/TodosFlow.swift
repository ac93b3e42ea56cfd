import Tether
import TetherFlow
import TetherPubSub
import Todos

/// TodoMVC's flow: one screen, whose filter is the end of its path.
///
/// Paths: `todos`, `todos/active`, `todos/completed`. The filter follows the path both ways:
/// choosing one changes the address, and Back or a link to another sets it.
@MainActor
public final class TodosFlow: FlowController {
  private let store: any TodoStore
  private let list: String
  private let pubsub: PubSub?
  private weak var screen: TodoListViewModel?

  /// Creates the flow.
  ///
  /// - Parameters:
  ///   - store: Where lists are kept.
  ///   - list: Whose list to show.
  ///   - pubsub: Where the screen says it shows the list, and counts the tabs that do.
  public init(store: any TodoStore, list: String, pubsub: PubSub? = nil) {
    self.store = store
    self.list = list
    self.pubsub = pubsub
  }

  /// The path of the list showing `filter`: a link's address.
  ///
  /// - Parameter filter: The filter.
  /// - Returns: `/todos`, `/todos/active` or `/todos/completed`.
  public static func path(showing filter: TodoListViewModel.Filter) -> ScreenPath {
    ScreenPath(["todos"] + filter.pathTail)
  }

  /// Builds the list screen; it loads the list when it first appears.
  public func start(on navigator: ShowcaseNavigator) -> ShowcaseScreen {
    let todos = TodoListViewModel(store: store, listID: list, pubsub: pubsub)
    screen = todos
    return Screen(
      .todos(todos), title: todos.title, path: Self.path(showing: .all).components, owner: self,
      pathTail: todos.pathTail, onAppear: { await todos.viewDidLoad() })
  }

  /// `active` or `completed` shows that filter.
  public func restore(_ path: ArraySlice<String>, on navigator: ShowcaseNavigator)
    async throws(NavigationError)
  {
    guard !path.isEmpty else { return }
    guard let filter = TodoListViewModel.Filter(pathTail: Array(path)) else {
      throw .unknownComponent(path.joined(separator: "/"))
    }
    screen?.show(filter)
  }
}

import ShowcaseFlows
import Tether
import TetherTerminal

/// The terminal screen for each showcase screen: an exhaustive switch over the destinations,
/// so every screen has one at compile time. Each is markup (`TerminalScreen`); the layer lays
/// it out and owns focus and keys.
@MainActor
public enum ShowcaseViews {
  /// The screen for `screen`.
  ///
  /// - Parameters:
  ///   - screen: The screen a flow pushed.
  ///   - tick: The spinners' animation clock.
  /// - Returns: Its terminal screen.
  public static func makeScreen(for screen: ShowcaseScreen, tick: Property<Int>)
    -> any TerminalScreen
  {
    switch screen.destination {
    case .home(let home): HomeScreen(home)
    case .photoList(let list): PhotoListScreen(list, tick: tick)
    case .photoDetail(let detail): PhotoDetailScreen(detail)
    case .courseList(let list): CourseListScreen(list, tick: tick)
    case .courseDetail(let detail): CourseDetailScreen(detail)
    case .profile(let profile): ProfileScreen(profile, tick: tick)
    case .articleList(let list): ArticleListScreen(list, tick: tick)
    case .article(let article): ArticleScreen(article)
    case .entry(let entry): EntryScreen(entry, tick: tick)
    case .greeting(let greeting): GreetingScreen(greeting)
    case .salutations(let picker): SalutationPickerScreen(picker)
    case .todos(let todos): TodosTerminalScreen(todos)
    }
  }
}

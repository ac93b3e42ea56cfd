import ShowcaseFlows
import Tether
import TetherTerminal

let dim = CellStyle(dim: true)
let bold = CellStyle(bold: true)

/// The terminal view for each showcase screen: an exhaustive switch over the destinations, so
/// every screen has a view at compile time.
@MainActor
public enum ShowcaseViews {
  /// The view for `screen`.
  ///
  /// - Parameters:
  ///   - screen: The screen a flow pushed.
  ///   - tick: The spinners' animation clock.
  /// - Returns: Its view.
  public static func makeView(for screen: ShowcaseScreen, tick: Property<Int>) -> any TerminalView {
    switch screen.destination {
    case .home(let home): HomeScreen.view(home)
    case .photoList(let list): PhotoListScreen.view(list, tick: tick)
    case .photoDetail(let detail): PhotoDetailScreen.view(detail)
    case .courseList(let list): CourseListScreen.view(list, tick: tick)
    case .courseDetail(let detail): CourseDetailScreen.view(detail)
    case .profile(let profile): ProfileScreen.view(profile, tick: tick)
    case .articleList(let list): ArticleListScreen.view(list, tick: tick)
    case .article(let article): ArticleScreen.view(article)
    case .entry(let entry): EntryScreen.view(entry, tick: tick)
    case .greeting(let greeting): GreetingScreen.view(greeting)
    case .salutations(let picker): SalutationPickerScreen.view(picker)
    case .todos(let todos): TodosTerminalScreen(todos)
    }
  }
}

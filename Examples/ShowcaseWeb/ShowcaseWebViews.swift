import ShowcaseFlows
import TetherWeb

/// The web view for each showcase screen: an exhaustive switch over the destinations, the same
/// one the terminal has, translated to HTML.
@MainActor
public enum ShowcaseWebViews {
  /// The view for `screen`.
  ///
  /// - Parameter screen: The screen a flow pushed.
  /// - Returns: Its view.
  public static func makeView(for screen: ShowcaseScreen) -> any WebView {
    switch screen.destination {
    case .home(let home): HomeScreen.view(home)
    case .photoList(let list): PhotoListScreen.view(list)
    case .photoDetail(let detail): PhotoDetailScreen.view(detail)
    case .courseList(let list): CourseListScreen.view(list)
    case .courseDetail(let detail): CourseDetailScreen.view(detail)
    case .profile(let profile): ProfileScreen.view(profile)
    case .articleList(let list): ArticleListScreen.view(list)
    case .article(let article): ArticleScreen.view(article)
    case .entry(let entry): EntryScreen.view(entry)
    case .greeting(let greeting): GreetingScreen.view(greeting)
    }
  }
}

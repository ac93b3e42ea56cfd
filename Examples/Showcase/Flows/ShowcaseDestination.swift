import Articles
import Courses
import Entry
import Gallery
import Profile
import TetherFlow
import Todos

/// Every screen of the showcase, typed: a view layer switches over it exhaustively, so each
/// screen has a view at compile time.
@MainActor
public enum ShowcaseDestination {
  /// The home menu.
  case home(HomeViewModel)
  /// The Gallery's popular photos.
  case photoList(PhotoListViewModel)
  /// A for-sale photo's detail.
  case photoDetail(PhotoDetailViewModel)
  /// The Courses' list.
  case courseList(CourseListViewModel)
  /// A course's detail.
  case courseDetail(CourseDetailViewModel)
  /// The Profile header, in four binding styles.
  case profile(ProfileScreenViewModel)
  /// The Articles' list.
  case articleList(ArticleListViewModel)
  /// One article, from a model or a dictionary.
  case article(any ArticleViewViewModel)
  /// The Entry screen.
  case entry(EntryViewModel)
  /// The Entry's greeting.
  case greeting(GreetingViewModel)
  /// The greeting's salutation picker, shown as a sheet.
  case salutations(SalutationPickerViewModel)
  /// TodoMVC's list.
  case todos(TodoListViewModel)
}

/// The navigator every showcase flow talks to.
public typealias ShowcaseNavigator = any Navigator<ShowcaseDestination>
/// One showcase screen.
public typealias ShowcaseScreen = Screen<ShowcaseDestination>

extension ShowcaseDestination {
  /// The screen's view model, for code that counts or tracks them (the web server's leak
  /// check) without caring which screen it is.
  public var viewModel: AnyObject {
    switch self {
    case .home(let model): model
    case .photoList(let model): model
    case .photoDetail(let model): model
    case .courseList(let model): model
    case .courseDetail(let model): model
    case .profile(let model): model
    case .articleList(let model): model
    case .article(let model): model as AnyObject
    case .entry(let model): model
    case .greeting(let model): model
    case .salutations(let model): model
    case .todos(let model): model
    }
  }
}

import Articles
import Courses
import Entry
import Gallery
import Profile
import ShowcaseFlows
import TetherFlow
import Todos

/// Typed look-ups of a showcase screen's view model, for tests: `nil` when the screen shows
/// something else.
@MainActor
extension Screen where Destination == ShowcaseDestination {
  /// The home view model, if the screen shows one.
  public var home: HomeViewModel? {
    if case .home(let value) = destination { value } else { nil }
  }
  /// The photoList view model, if the screen shows one.
  public var photoList: PhotoListViewModel? {
    if case .photoList(let value) = destination { value } else { nil }
  }
  /// The photoDetail view model, if the screen shows one.
  public var photoDetail: PhotoDetailViewModel? {
    if case .photoDetail(let value) = destination { value } else { nil }
  }
  /// The courseList view model, if the screen shows one.
  public var courseList: CourseListViewModel? {
    if case .courseList(let value) = destination { value } else { nil }
  }
  /// The courseDetail view model, if the screen shows one.
  public var courseDetail: CourseDetailViewModel? {
    if case .courseDetail(let value) = destination { value } else { nil }
  }
  /// The profile view model, if the screen shows one.
  public var profile: ProfileScreenViewModel? {
    if case .profile(let value) = destination { value } else { nil }
  }
  /// The articleList view model, if the screen shows one.
  public var articleList: ArticleListViewModel? {
    if case .articleList(let value) = destination { value } else { nil }
  }
  /// The article view model, if the screen shows one.
  public var article: (any ArticleViewViewModel)? {
    if case .article(let value) = destination { value } else { nil }
  }
  /// The entry view model, if the screen shows one.
  public var entry: EntryViewModel? {
    if case .entry(let value) = destination { value } else { nil }
  }
  /// The greeting view model, if the screen shows one.
  public var greeting: GreetingViewModel? {
    if case .greeting(let value) = destination { value } else { nil }
  }

  /// The salutation picker, if the screen shows one (a sheet).
  public var salutations: SalutationPickerViewModel? {
    if case .salutations(let value) = destination { value } else { nil }
  }

  /// The TodoMVC view model, if the screen shows one.
  public var todos: TodoListViewModel? {
    if case .todos(let value) = destination { value } else { nil }
  }

  /// The view model, whatever its type, for leak tracking.
  public var viewModel: AnyObject {
    switch destination {
    case .home(let value): value
    case .photoList(let value): value
    case .photoDetail(let value): value
    case .courseList(let value): value
    case .courseDetail(let value): value
    case .profile(let value): value
    case .articleList(let value): value
    case .article(let value): value
    case .entry(let value): value
    case .greeting(let value): value
    case .salutations(let value): value
    case .todos(let value): value
    }
  }
}

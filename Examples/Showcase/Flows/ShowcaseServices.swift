import Articles
import Courses
import Entry
import Foundation
import Gallery
import Profile
import TetherPubSub
import Todos

/// Every service the five apps need, injected by the flows (seed 004's dependency injection).
public struct ShowcaseServices: Sendable {
  /// The Gallery's photos.
  public var photos: any PhotoService
  /// The Courses' catalog.
  public var courses: any CourseService
  /// The Profile's users.
  public var profiles: any ProfileService
  /// The Articles.
  public var articles: any ArticleService
  /// The Articles' thumbnails.
  public var thumbnails: any ThumbnailLoader
  /// The Entry's users.
  public var users: any UserFetcher
  /// TodoMVC's lists, one per browser (or terminal user); in this process's memory unless
  /// set otherwise.
  public var todos: any TodoStore = InMemoryTodoStore()
  /// Where TodoMVC's tabs say which list they show (each screen counts the tabs showing its
  /// list): none unless set. The web server starts one on a bus in its process; a cluster's
  /// nodes share PostgreSQL's notifications.
  public var pubsub: PubSub?
  /// The locale dates are formatted for; the user's by default.
  public var locale: Locale = .current
  /// The time zone dates are shown in; the user's by default.
  public var timeZone: TimeZone = .current

  /// Creates a set of services.
  ///
  /// - Parameters:
  ///   - photos: The Gallery's photos.
  ///   - courses: The Courses' catalog.
  ///   - profiles: The Profile's users.
  ///   - articles: The Articles.
  ///   - thumbnails: The Articles' thumbnails.
  ///   - users: The Entry's users.
  public init(
    photos: any PhotoService, courses: any CourseService, profiles: any ProfileService,
    articles: any ArticleService, thumbnails: any ThumbnailLoader, users: any UserFetcher
  ) {
    self.photos = photos
    self.courses = courses
    self.profiles = profiles
    self.articles = articles
    self.thumbnails = thumbnails
    self.users = users
  }

  /// The embedded data: works offline, the default.
  ///
  /// - Parameter thumbnailDelay: How long a bundled thumbnail takes to "download".
  /// - Returns: The bundled services.
  public static func bundled(thumbnailDelay: Duration = .milliseconds(300)) -> ShowcaseServices {
    ShowcaseServices(
      photos: BundledPhotoService(), courses: BundledCourseService(),
      profiles: BundledProfileService(), articles: BundledArticleService(),
      thumbnails: BundledThumbnailLoader(delay: thumbnailDelay), users: BundledUserFetcher())
  }

  /// A server speaking the examples' formats, such as `showcase-api`.
  ///
  /// - Parameters:
  ///   - baseURL: The server's root.
  ///   - timeout: The limit for one request.
  /// - Returns: The HTTP services.
  public static func http(baseURL: URL, timeout: Duration = .seconds(10)) -> ShowcaseServices {
    ShowcaseServices(
      photos: HTTPPhotoService(baseURL: baseURL, timeout: timeout),
      courses: HTTPCourseService(baseURL: baseURL, timeout: timeout),
      profiles: HTTPProfileService(baseURL: baseURL, timeout: timeout),
      articles: HTTPArticleService(baseURL: baseURL, timeout: timeout),
      thumbnails: HTTPThumbnailLoader(baseURL: baseURL, timeout: timeout),
      users: HTTPUserFetcher(baseURL: baseURL, timeout: timeout))
  }
}

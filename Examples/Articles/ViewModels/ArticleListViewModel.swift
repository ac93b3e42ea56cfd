import ExampleSupport
import Foundation
import Tether

/// The article list: one row per record, each opening the article screen.
@MainActor
public final class ArticleListViewModel {
  /// One row: the headline and the date.
  public struct Row: Identifiable, Equatable, Sendable {
    /// The row's position, stable for a load.
    public let id: Int
    /// The headline.
    public let title: String
    /// The date, or "Date unknown".
    public let date: String
  }

  /// The screen's title.
  public let title = "Articles"
  private let load = LoadCycle()
  /// Whether the articles are loading.
  public let isLoading: Property<Bool>
  /// The rows.
  @Output public private(set) var rows: [Row] = []
  /// Why the last load failed, or `nil`.
  public let errorMessage: Property<String?>
  /// Where the list leads.
  public enum Route {
    /// The article screen for the row with `id`.
    case article(any ArticleViewViewModel, id: Int)

    /// The article screen's view model.
    public var article: any ArticleViewViewModel {
      switch self {
      case .article(let article, _): article
      }
    }
  }
  /// The article screen to show for a chosen row.
  @Event public var route: Signal<Route>

  private let service: any ArticleService
  private let loader: any ThumbnailLoader
  private let dates: ArticleDateFormat
  private var articles: [any ArticleViewViewModel] = []
  private var hasLoaded = false

  /// Creates the list.
  ///
  /// - Parameters:
  ///   - service: Where articles come from.
  ///   - loader: Loads thumbnails.
  ///   - dates: The date format.
  public init(
    service: any ArticleService, loader: any ThumbnailLoader, dates: ArticleDateFormat = .init()
  ) {
    isLoading = load.isLoading
    errorMessage = load.errorMessage
    self.service = service
    self.loader = loader
    self.dates = dates
  }

  /// The screen appeared: load the articles.
  public func viewDidLoad() async {
    await load.run { [self] () async throws(ServiceError) in
      articles = try await service.articles().map { record in
        switch record {
        case .model(let article):
          ArticleViewViewModelFromArticle(article, loader: loader, dates: dates)
        case .dictionary(let dictionary):
          ArticleViewViewModelFromDictionary(dictionary, loader: loader, dates: dates)
        }
      }
      hasLoaded = true
      rows = articles.enumerated().map { Row(id: $0, title: $1.title, date: $1.date) }
    }
  }

  /// The user asked to load again (after an error, or to refresh).
  public func reloadRequested() async {
    await viewDidLoad()
  }

  /// A link asked for the article with row id `id`: load the list if needed (or wait for the
  /// load in flight), then route to it.
  ///
  /// - Parameter id: The row's id (its position in the list).
  /// - Throws: `OpenError.notFound` for a row the list does not have,
  ///   `OpenError.unavailable` when the list could not be loaded.
  public func openRequested(id: Int) async throws(OpenError) {
    await load.settled()
    if !hasLoaded { await viewDidLoad() }
    if !hasLoaded, let error = load.lastError { throw .unavailable(error) }
    guard articles.indices.contains(id) else { throw .notFound }
    userSelected(row: id)
  }

  /// The user chose row `index`.
  ///
  /// - Parameter index: The row; rows outside the list are ignored.
  public func userSelected(row index: Int) {
    guard articles.indices.contains(index) else { return }
    _route.send(.article(articles[index], id: index))
  }
}

import ExampleSupport
import Foundation
import Tether

/// What the article screen shows (seed 003's `ArticleViewViewModel`), whatever the article's
/// source. The thumbnail arrives later, through a property the view binds to — the problem the
/// seed left open.
@MainActor
public protocol ArticleViewViewModel: AnyObject {
  /// The headline.
  var title: String { get }
  /// The text.
  var body: String { get }
  /// The date in the short style of the view model's locale.
  var date: String { get }
  /// The thumbnail: `nil` until it has loaded (or when there is none).
  var thumbnail: Property<Thumbnail?> { get }
  /// What the thumbnail slot says while there is no image: "Loading image…", "No image", or
  /// why it failed.
  var thumbnailStatus: Property<String?> { get }
  /// The screen appeared: start loading the thumbnail.
  func viewDidAppear() async
}

/// Formats dates in seed 003's short style for one locale and time zone.
///
/// The formatter is built once per format, not per date: creating a `DateFormatter` costs far
/// more than using one (it loads the locale's ICU patterns). `DateFormatter` is thread-safe for
/// formatting once configured, which is why the format can be `Sendable`.
public struct ArticleDateFormat: Sendable {
  private let formatter: DateFormatter

  /// Creates the format.
  ///
  /// - Parameters:
  ///   - locale: The locale whose short date style to use.
  ///   - timeZone: The zone to show dates in.
  public init(locale: Locale = .current, timeZone: TimeZone = .current) {
    let formatter = DateFormatter()
    formatter.locale = locale
    formatter.timeZone = timeZone
    formatter.dateStyle = .short
    formatter.timeStyle = .none
    self.formatter = formatter
  }

  /// `date` in the short date style, e.g. `10/1/17` in `en_US`.
  ///
  /// - Parameter date: The date.
  /// - Returns: The formatted date.
  public func string(from date: Date) -> String {
    formatter.string(from: date)
  }
}

/// The thumbnail state shared by both view models: load once, publish through properties.
@MainActor
final class ThumbnailSlot {
  let image = MutableProperty<Thumbnail?>(nil)
  let status: MutableProperty<String?>
  private let url: URL?
  private let loader: any ThumbnailLoader
  private var hasStarted = false

  init(url: URL?, loader: any ThumbnailLoader) {
    self.url = url
    self.loader = loader
    status = MutableProperty(url == nil ? "No image" : "Loading image…")
  }

  func load() async {
    guard let url, !hasStarted else { return }
    hasStarted = true
    do {
      let thumbnail = try await loader.thumbnail(at: url)
      status.value = nil
      image.value = thumbnail
    } catch {
      status.value = "Image unavailable: \(error.userMessage)"
    }
  }
}

/// An article screen fed by a typed ``Article`` (the seed's `ArticleViewViewModelFromArticle`).
@MainActor
public final class ArticleViewViewModelFromArticle: ArticleViewViewModel {
  /// The headline.
  public let title: String
  /// The text.
  public let body: String
  /// The date in the short style.
  public let date: String
  /// The thumbnail, `nil` until it has loaded.
  public var thumbnail: Property<Thumbnail?> { slot.image }
  /// What the thumbnail slot says while there is no image.
  public var thumbnailStatus: Property<String?> { slot.status }
  private let slot: ThumbnailSlot

  /// Formats `article`.
  ///
  /// - Parameters:
  ///   - article: The article.
  ///   - loader: Loads the thumbnail.
  ///   - dates: The date format.
  public init(_ article: Article, loader: any ThumbnailLoader, dates: ArticleDateFormat = .init()) {
    title = article.title
    body = article.body
    date = dates.string(from: article.date)
    slot = ThumbnailSlot(url: article.thumbnail, loader: loader)
  }

  /// The screen appeared: start loading the thumbnail (once).
  public func viewDidAppear() async {
    await slot.load()
  }
}

/// An article screen fed by seed 003's dictionary. Missing or wrongly typed keys fall back:
/// title "Untitled", body "", date "Date unknown", no thumbnail.
@MainActor
public final class ArticleViewViewModelFromDictionary: ArticleViewViewModel {
  /// Shown for a missing or non-text title.
  public static let untitled = "Untitled"
  /// Shown for a missing or unparseable date.
  public static let unknownDate = "Date unknown"

  /// The headline.
  public let title: String
  /// The text.
  public let body: String
  /// The date in the short style.
  public let date: String
  /// The thumbnail, `nil` until it has loaded.
  public var thumbnail: Property<Thumbnail?> { slot.image }
  /// What the thumbnail slot says while there is no image.
  public var thumbnailStatus: Property<String?> { slot.status }
  private let slot: ThumbnailSlot

  /// Formats `dictionary` defensively.
  ///
  /// - Parameters:
  ///   - dictionary: The article's keys and values.
  ///   - loader: Loads the thumbnail.
  ///   - dates: The date format.
  public init(
    _ dictionary: [String: JSONValue], loader: any ThumbnailLoader,
    dates: ArticleDateFormat = .init()
  ) {
    let title = dictionary["title"]?.stringValue ?? ""
    self.title = title.isEmpty ? Self.untitled : title
    body = dictionary["body"]?.stringValue ?? ""
    if let text = dictionary["date"]?.stringValue, let parsed = try? Date(text, strategy: .iso8601)
    {
      date = dates.string(from: parsed)
    } else {
      date = Self.unknownDate
    }
    let thumbnailText = dictionary["thumbnail"]?.stringValue ?? ""
    slot = ThumbnailSlot(
      url: thumbnailText.isEmpty ? nil : URL(string: thumbnailText), loader: loader)
  }

  /// The screen appeared: start loading the thumbnail (once).
  public func viewDidAppear() async {
    await slot.load()
  }
}

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
  private let _isLoading = MutableProperty(false)
  /// Whether the articles are loading.
  public var isLoading: Property<Bool> { _isLoading }
  private let _rows = MutableProperty<[Row]>([])
  /// The rows.
  public var rows: Property<[Row]> { _rows }
  private let _errorMessage = MutableProperty<String?>(nil)
  /// Why the last load failed, or `nil`.
  public var errorMessage: Property<String?> { _errorMessage }
  private let routePipe = Signal<any ArticleViewViewModel>.pipe()
  /// The article screen to show for a chosen row.
  public var route: Signal<any ArticleViewViewModel> { routePipe.output }

  private let service: any ArticleService
  private let loader: any ThumbnailLoader
  private let dates: ArticleDateFormat
  private var articles: [any ArticleViewViewModel] = []

  /// Creates the list.
  ///
  /// - Parameters:
  ///   - service: Where articles come from.
  ///   - loader: Loads thumbnails.
  ///   - dates: The date format.
  public init(
    service: any ArticleService, loader: any ThumbnailLoader, dates: ArticleDateFormat = .init()
  ) {
    self.service = service
    self.loader = loader
    self.dates = dates
  }

  /// The screen appeared, or the user asked to retry: load the articles.
  public func viewDidLoad() async {
    guard !_isLoading.value else { return }
    if _errorMessage.value != nil { _errorMessage.value = nil }
    _isLoading.value = true
    do {
      articles = try await service.articles().map { record in
        switch record {
        case .model(let article):
          ArticleViewViewModelFromArticle(article, loader: loader, dates: dates)
        case .dictionary(let dictionary):
          ArticleViewViewModelFromDictionary(dictionary, loader: loader, dates: dates)
        }
      }
      _rows.value = articles.enumerated().map { Row(id: $0, title: $1.title, date: $1.date) }
    } catch {
      _errorMessage.value = error.userMessage
    }
    _isLoading.value = false
  }

  /// The user chose row `index`.
  ///
  /// - Parameter index: The row; rows outside the list are ignored.
  public func userSelected(row index: Int) {
    guard articles.indices.contains(index) else { return }
    routePipe.input.send(articles[index])
  }
}

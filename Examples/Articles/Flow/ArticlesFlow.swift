import Articles
import Tether
import TetherFlow

/// The Articles: choosing a row shows the article screen (from a model or a dictionary).
///
/// Paths: `articles`, then `article/<row>` for one article.
@MainActor
public final class ArticlesFlow: FlowController {
  private let services: ShowcaseServices
  private let lifetime = Lifetime()
  private weak var list: ArticleListViewModel?

  /// Creates the flow.
  ///
  /// - Parameter services: Where the data comes from.
  public init(services: ShowcaseServices) {
    self.services = services
  }

  /// Builds the article list and wires its route.
  public func start(on navigator: ShowcaseNavigator) -> ShowcaseScreen {
    let list = ArticleListViewModel(
      service: services.articles, loader: services.thumbnails,
      dates: ArticleDateFormat(locale: services.locale, timeZone: services.timeZone))
    self.list = list
    list.route.observe { [weak navigator] route in
      switch route {
      case .article(let article, let id):
        navigator?.push(
          Screen(
            .article(article), title: article.title, path: ["article", "\(id)"],
            onAppear: { await article.viewDidAppear() }))
      }
    }
    .store(in: lifetime)
    return Screen(
      .articleList(list), title: list.title, path: ["articles"], owner: self,
      onAppear: { [weak list] in await list?.viewDidLoad() })
  }

  /// `article/<row>` opens that row's article once the list has loaded.
  public func restore(_ path: ArraySlice<String>, on navigator: ShowcaseNavigator)
    async throws(NavigationError)
  {
    guard !path.isEmpty else { return }
    let id = try path.identifier(named: "article")
    guard let list else { throw .unavailable("article/\(id)", reason: "The list is gone.") }
    do {
      try await list.openRequested(id: id)
    } catch {
      throw .unavailable("article/\(id)", reason: error.reason(for: "article \(id)"))
    }
  }
}

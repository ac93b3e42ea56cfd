import Articles
import Courses
import Entry
import Gallery
import Profile
import Tether
import TetherFlow

/// The Gallery: a for-sale photo opens its detail; any other shows seed 000's alert.
@MainActor
public final class GalleryFlow: FlowController {
  private let services: ShowcaseServices
  private let lifetime = Lifetime()

  /// Creates the flow.
  ///
  /// - Parameter services: Where the data comes from.
  public init(services: ShowcaseServices) {
    self.services = services
  }

  /// Builds the photo list and wires its routes and alerts.
  public func start(on navigator: any Navigator) -> Screen {
    let list = PhotoListViewModel(service: services.photos, timeZone: services.timeZone)
    list.route.observe { [weak navigator] route in
      switch route {
      case .detail(let detail):
        navigator?.push(Screen(viewModel: detail, title: detail.titleText))
      }
    }
    .store(in: lifetime)
    list.alertMessage.observe { [weak navigator] message in
      let title = message == PhotoListViewModel.notForSaleMessage ? "Not for sale" : "Gallery"
      navigator?.present(Alert(title: title, message: message))
    }
    .store(in: lifetime)
    return Screen(viewModel: list, title: list.title, owner: self)
  }
}

/// The Courses: choosing a course shows the detail view model the list created.
@MainActor
public final class CoursesFlow: FlowController {
  private let services: ShowcaseServices
  private let lifetime = Lifetime()

  /// Creates the flow.
  ///
  /// - Parameter services: Where the data comes from.
  public init(services: ShowcaseServices) {
    self.services = services
  }

  /// Builds the course list and wires its route.
  public func start(on navigator: any Navigator) -> Screen {
    let list = CourseListViewModel(service: services.courses)
    list.route.observe { [weak navigator] detail in
      navigator?.push(Screen(viewModel: detail, title: detail.titleText))
    }
    .store(in: lifetime)
    return Screen(viewModel: list, title: list.title, owner: self)
  }
}

/// The Profile: one screen; the binding style is chosen on it.
@MainActor
public final class ProfileFlow: FlowController {
  private let services: ShowcaseServices

  /// Creates the flow.
  ///
  /// - Parameter services: Where the data comes from.
  public init(services: ShowcaseServices) {
    self.services = services
  }

  /// Builds the profile screen.
  public func start(on navigator: any Navigator) -> Screen {
    let screen = ProfileScreenViewModel(service: services.profiles)
    return Screen(viewModel: screen, title: "Profile", owner: self)
  }
}

/// The Articles: choosing a row shows the article screen (from a model or a dictionary).
@MainActor
public final class ArticlesFlow: FlowController {
  private let services: ShowcaseServices
  private let lifetime = Lifetime()

  /// Creates the flow.
  ///
  /// - Parameter services: Where the data comes from.
  public init(services: ShowcaseServices) {
    self.services = services
  }

  /// Builds the article list and wires its route.
  public func start(on navigator: any Navigator) -> Screen {
    let list = ArticleListViewModel(
      service: services.articles, loader: services.thumbnails,
      dates: ArticleDateFormat(locale: services.locale, timeZone: services.timeZone))
    list.route.observe { [weak navigator] article in
      navigator?.push(Screen(viewModel: article, title: article.title))
    }
    .store(in: lifetime)
    return Screen(viewModel: list, title: list.title, owner: self)
  }
}

/// The Entry: seed 004's flow logic carried out on a navigator.
@MainActor
public final class EntryFlow: FlowController {
  private let services: ShowcaseServices
  private let lifetime = Lifetime()

  /// Creates the flow.
  ///
  /// - Parameter services: Where the data comes from.
  public init(services: ShowcaseServices) {
    self.services = services
  }

  /// Builds the entry screen; a selected user opens the greeting.
  public func start(on navigator: any Navigator) -> Screen {
    let logic = EntryFlowLogic(fetcher: services.users)
    logic.route.observe { [weak navigator] route in
      switch route {
      case .greeting(let greeting):
        navigator?.push(Screen(viewModel: greeting, title: "Greeting"))
      }
    }
    .store(in: lifetime)
    // The screen owns the logic (and through it the entry view model) and this flow.
    return Screen(viewModel: logic.entry, title: logic.entry.title, owner: FlowPair(self, logic))
  }
}

/// Keeps two objects alive together as one screen owner.
@MainActor
final class FlowPair {
  let first: AnyObject
  let second: AnyObject
  init(_ first: AnyObject, _ second: AnyObject) {
    self.first = first
    self.second = second
  }
}

/// Seed 004's `MainFlowController`: the home menu, and a child flow per app.
@MainActor
public final class MainFlowController: FlowController {
  private let services: ShowcaseServices
  private let lifetime = Lifetime()

  /// Creates the main flow.
  ///
  /// - Parameter services: The services injected into every child flow.
  public init(services: ShowcaseServices) {
    self.services = services
  }

  /// Shows the home menu as the navigator's root (the seed's `startFlow()`).
  ///
  /// - Parameter navigator: The app's navigator.
  public func startFlow(on navigator: any Navigator) {
    navigator.setRoot(start(on: navigator))
  }

  /// Builds the home menu; choosing an app starts its flow on top.
  public func start(on navigator: any Navigator) -> Screen {
    let home = HomeViewModel()
    let services = self.services
    home.selection.observe { [weak navigator] app in
      guard let navigator else { return }
      navigator.push(Self.flow(for: app, services: services).start(on: navigator))
    }
    .store(in: lifetime)
    return Screen(viewModel: home, title: home.title, owner: self)
  }

  /// The child flow for `app`.
  static func flow(for app: ShowcaseApp, services: ShowcaseServices) -> any FlowController {
    switch app {
    case .gallery: GalleryFlow(services: services)
    case .courses: CoursesFlow(services: services)
    case .profile: ProfileFlow(services: services)
    case .articles: ArticlesFlow(services: services)
    case .entry: EntryFlow(services: services)
    }
  }
}

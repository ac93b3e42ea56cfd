import Foundation
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
  public static func makeView(for screen: ShowcaseScreen) -> any WebScreen {
    switch screen.destination {
    case .home(let home): HomeScreen(home)
    case .photoList(let list): PhotoListScreen(list)
    case .photoDetail(let detail): PhotoDetailScreen(detail)
    case .courseList(let list): CourseListScreen(list)
    case .courseDetail(let detail): CourseDetailScreen(detail)
    case .profile(let profile): ProfileScreen(profile)
    case .articleList(let list): ArticleListScreen(list)
    case .article(let article): ArticleScreen(article)
    case .entry(let entry): EntryScreen(entry)
    case .greeting(let greeting): GreetingScreen(greeting)
    case .salutations(let picker): SalutationPickerScreen(picker)
    case .todos(let todos): TodosScreen(todos: todos)
    }
  }
}

extension WebApp {
  /// The showcase as a web app: the main flow at the root of every tab, the views above, and
  /// each screen's view model tracked, so a closed session proves it freed them.
  ///
  /// - Parameter services: Where the apps' data comes from.
  /// - Returns: The app.
  public static func showcase(services: ShowcaseServices) -> WebApp {
    var app = WebApp(
      title: "Tether showcase",
      rootFlowFor: { client in
        MainFlowController(services: services, todoList: client.id ?? "anonymous")
      },
      trackedObject: { $0.destination.viewModel }, makeView: ShowcaseWebViews.makeView(for:))
    app.stylesheet = showcaseStylesheet
    // TodoMVC's "Copy list" is a client hook: the page's own script copies.
    if let copyScript, let hooked = try? app.hook(.copyToClipboard, script: copyScript) {
      app = hooked
    }
    return app
  }

  /// TodoMVC's copy hook's script, `copy-to-clipboard.js` (a resource of this target).
  private static let copyScript: String? = Bundle.module.url(
    forResource: "copy-to-clipboard", withExtension: "js"
  ).flatMap { try? String(contentsOf: $0, encoding: .utf8) }

  /// TodoMVC's look, from the target's `todos.css` (a resource of this target, read once).
  private static let showcaseStylesheet: String? = Bundle.module.url(
    forResource: "todos", withExtension: "css"
  ).flatMap { try? String(contentsOf: $0, encoding: .utf8) }
}

extension WebSessionRegistry {
  /// A registry of showcase sessions.
  ///
  /// - Parameters:
  ///   - services: Where the apps' data comes from.
  ///   - capacity: The most sessions open at once.
  ///   - gracePeriod: How long a session outlives its socket.
  ///   - firstRender: Whether a page's session is closed once the page is drawn (its socket
  ///     rebuilds it) or held for its socket.
  ///   - resumeSigner: The cluster's shared signer, if any.
  ///   - clientKeys: The keys browsers' cookies are issued under without a `resumeSigner`
  ///     (a key kept beside the lists, so a restart keeps every browser's list).
  ///   - signing: Makes the registry's keys of its own (the server passes swift-crypto's).
  ///   - clock: The clock that times the grace period.
  public convenience init<C: Clock<Duration>>(
    services: ShowcaseServices, capacity: Int = 500, gracePeriod: Duration = .seconds(30),
    firstRender: FirstRender = .stateless, resumeSigner: WebResumeSigner? = nil,
    clientKeys: [WebResumeKey]? = nil, signing: WebSigning? = nil, clock: C = ContinuousClock()
  ) {
    self.init(
      app: .showcase(services: services), capacity: capacity, gracePeriod: gracePeriod,
      firstRender: firstRender, resumeSigner: resumeSigner, clientKeys: clientKeys,
      signing: signing, clock: clock)
  }
}

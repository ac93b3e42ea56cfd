import Profile
import TetherFlow

/// The Profile: one screen; the binding style and the profile shown are chosen on it.
///
/// Paths: `profile`, then the binding style's tab if it is not the first shown
/// (`profile/streams`).
@MainActor
public final class ProfileFlow: FlowController {
  private let services: ShowcaseServices
  private weak var screen: ProfileScreenViewModel?

  /// Creates the flow.
  ///
  /// - Parameter services: Where the data comes from.
  public init(services: ShowcaseServices) {
    self.services = services
  }

  /// Builds the profile screen.
  public func start(on navigator: ShowcaseNavigator) -> ShowcaseScreen {
    let screen = ProfileScreenViewModel(service: services.profiles)
    self.screen = screen
    return Screen(
      .profile(screen), title: screen.title, path: ["profile"], owner: self,
      pathTail: screen.styleTabs.pathTail,
      onAppear: { [weak screen] in await screen?.viewDidLoad() })
  }

  /// `view`, `context`, `view-model` or `streams` shows that binding style's tab.
  public func restore(_ path: ArraySlice<String>, on navigator: ShowcaseNavigator)
    async throws(NavigationError)
  {
    guard !path.isEmpty else { return }
    guard let tabs = screen?.styleTabs, let style = tabs.tab(forPathTail: Array(path)) else {
      throw .unknownComponent(path.joined(separator: "/"))
    }
    tabs.select(style)
  }
}

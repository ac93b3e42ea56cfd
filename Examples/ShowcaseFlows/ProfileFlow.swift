import Profile
import TetherFlow

/// The Profile: one screen; the binding style and the profile shown are chosen on it.
///
/// Path: `profile`.
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
  public func start(on navigator: ShowcaseNavigator) -> ShowcaseScreen {
    let screen = ProfileScreenViewModel(service: services.profiles)
    return Screen(
      .profile(screen), title: screen.title, path: ["profile"], owner: self,
      onAppear: { [weak screen] in await screen?.viewDidLoad() })
  }
}

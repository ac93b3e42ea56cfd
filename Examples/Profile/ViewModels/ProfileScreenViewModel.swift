import ExampleSupport
import Foundation
import Tether
import TetherFlow

/// The profile screen: loads a login's profile and offers it to every binding style.
@MainActor
public final class ProfileScreenViewModel {
  /// The binding styles the screen can show, side by side in the showcase.
  public enum Style: String, CaseIterable, Sendable {
    /// The view binds the model itself.
    case viewBindsModel = "View binds model"
    /// The model renders into a context.
    case modelRendersIntoContext = "Model renders into context"
    /// A separate view model.
    case viewModel = "View model"
    /// A view model built from Tether properties (Driver semantics).
    case streams = "Streams (Driver)"

    /// The style's part of the screen's path: `/profile/streams`.
    public var pathComponent: String {
      switch self {
      case .viewBindsModel: "view"
      case .modelRendersIntoContext: "context"
      case .viewModel: "view-model"
      case .streams: "streams"
      }
    }
  }

  /// The screen's title.
  public let title = "Profile"
  /// The logins the screen steps through with ``nextProfileRequested()``, first shown first.
  public static let logins = ["octocat", "tether-dev", "li-na", "newcomer"]

  private let loadCycle = LoadCycle()
  /// Whether the profile is loading.
  public let isLoading: Property<Bool>
  /// The loaded profile, or `nil`.
  @Output public private(set) var profile: Profile? = nil
  /// Why the last load failed, or `nil`.
  public let errorMessage: Property<String?>
  /// The binding style shown.
  @Output public private(set) var style = Style.viewModel
  /// The styles offered, in key order (the view's keys 1…4).
  public let styles = Style.allCases
  /// The styles as tabs: the one shown is part of the screen's path (give ``TabSelection/pathTail``
  /// to its screen), so a link or Back lands on it.
  public let styleTabs = TabSelection(Style.allCases, selected: .viewModel) { $0.pathComponent }
  private var styleToken: ObservationToken?
  /// The header display for the loaded profile, produced by the chosen style.
  public let display: Property<ProfileHeaderDisplay?>
  /// The login shown (or being loaded).
  @Output public private(set) var login = ProfileScreenViewModel.logins[0]

  private let service: any ProfileService

  /// Creates the screen's view model.
  ///
  /// - Parameter service: Where profiles come from.
  public init(service: any ProfileService) {
    isLoading = loadCycle.isLoading
    errorMessage = loadCycle.errorMessage
    self.service = service
    display = _profile.projectedValue.combineLatest(with: _style.projectedValue).map {
      profile, style in
      profile.flatMap { Self.display(of: $0, style: style) }
    }
    // The tab shown is the style: a path (Back, a link) selects it as a press does.
    styleToken = styleTabs.$selected.observe { [weak self] style in
      guard let self, self.style != style else { return }
      self.style = style
    }
  }

  /// The screen appeared: load the login shown.
  public func viewDidLoad() async {
    await load(login: login)
  }

  /// The user asked to load the shown login again.
  public func reloadRequested() async {
    await load(login: login)
  }

  /// The user asked for the next profile: the login after the shown one, wrapping around.
  public func nextProfileRequested() async {
    let index = Self.logins.firstIndex(of: self.login) ?? -1
    await load(login: Self.logins[(index + 1) % Self.logins.count])
  }

  /// Loads the profile of `login` and makes it the login shown.
  ///
  /// - Parameter login: The account name.
  public func load(login: String) async {
    guard !loadCycle.isLoading.value else { return }
    if self.login != login { self.login = login }
    await loadCycle.run(message: { error in
      error == .unexpectedStatus(404) ? "No profile named \"\(login)\"" : error.userMessage
    }) { [self] () async throws(ServiceError) in
      profile = try await service.profile(login: login)
    }
  }

  /// The user picked a binding style.
  ///
  /// - Parameter style: The style to show.
  public func userSelected(style: Style) {
    styleTabs.select(style)
  }

  /// The display `style` produces for `profile`: each style's own code path, so views (and
  /// tests) can show that all styles agree.
  ///
  /// - Parameters:
  ///   - profile: The profile.
  ///   - style: The binding style.
  /// - Returns: The display, or `nil` if the style rendered an incomplete header.
  public static func display(of profile: Profile, style: Style) -> ProfileHeaderDisplay? {
    switch style {
    case .viewBindsModel:
      let header = ModelBoundProfileHeader()
      header.bind(model: profile)
      return header.display
    case .modelRendersIntoContext:
      var header = RenderedProfileHeader()
      profile.render(in: &header)
      return header.display
    case .viewModel:
      return ProfileHeaderViewModel(input: profile).display
    case .streams:
      return ProfileHeaderStreamViewModel(profile: profile).display.value
    }
  }
}

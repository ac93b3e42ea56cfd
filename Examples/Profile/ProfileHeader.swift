import Foundation
import Tether

/// A button title whose second part is emphasized, as seed 002 renders the counters:
/// `"12 \nFollowers"` with `"Followers"` attributed.
public struct AttributedTitle: Equatable, Hashable, Sendable {
  /// The whole title, e.g. `"12 \nFollowers"`.
  public var title: String
  /// The part to emphasize, e.g. `"Followers"`.
  public var attributingTitle: String

  /// Creates a title.
  ///
  /// - Parameters:
  ///   - title: The whole title.
  ///   - attributingTitle: The part to emphasize.
  public init(title: String, attributingTitle: String) {
    self.title = title
    self.attributingTitle = attributingTitle
  }

  /// `"<count> \n<label>"` with `label` emphasized.
  static func counter(_ count: Int, _ label: String) -> AttributedTitle {
    AttributedTitle(title: "\(count) \n\(label)", attributingTitle: label)
  }
}

/// What the profile header shows, whichever binding style produced it, so the styles can be
/// compared: the same profile must give equal displays.
public struct ProfileHeaderDisplay: Equatable, Sendable {
  /// The avatar's address (the default image when the profile's is not a URL).
  public var avatarURL: URL
  /// The nickname: the login.
  public var nickname: String
  /// The biography, or "Not set yet".
  public var bio: String
  /// `"N \nFollowers"`.
  public var followers: AttributedTitle
  /// `"N \nRepositories"`.
  public var repositories: AttributedTitle
  /// `"N \nFollowing"`.
  public var following: AttributedTitle
}

/// Seed 002's shared texts.
public enum ProfileHeaderText {
  /// Shown when a profile has no biography.
  public static let bioFallback = "Not set yet"
  /// Shown when a profile's avatar is not a usable URL.
  public static let defaultAvatarURL = URL(fileURLWithPath: "/default-avatar.png")

  static func bio(_ bio: String?) -> String {
    guard let bio, !bio.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      return bioFallback
    }
    return bio
  }

  static func avatar(_ text: String) -> URL {
    guard let url = URL(string: text), url.scheme != nil else { return defaultAvatarURL }
    return url
  }
}

// MARK: - Style 1: the view binds the model itself

/// Style 1 of seed 002: a view that takes the model and formats it itself (`bind(model:)`).
/// Simple, but the formatting is welded to that view.
public protocol ProfileModelBinding: AnyObject {
  /// Shows `model`.
  ///
  /// - Parameter model: The profile.
  func bind(model: Profile)
}

/// A headless header using style 1, as a view would implement it.
@MainActor
public final class ModelBoundProfileHeader: @MainActor ProfileModelBinding {
  /// What the header shows; `nil` until bound.
  public private(set) var display: ProfileHeaderDisplay?

  /// Creates an empty header.
  public init() {}

  /// Formats `model` here, in the view (the style's weakness).
  public func bind(model: Profile) {
    display = ProfileHeaderDisplay(
      avatarURL: ProfileHeaderText.avatar(model.avatarURL), nickname: model.login,
      bio: ProfileHeaderText.bio(model.bio), followers: .counter(model.followers, "Followers"),
      repositories: .counter(model.publicRepos, "Repositories"),
      following: .counter(model.following, "Following"))
  }
}

// MARK: - Style 2: the model renders into a context

/// Style 2 of seed 002: the view is a render context and the model renders itself into it.
public protocol RenderContext {
  /// Shows texts in order: the nickname, then the biography.
  mutating func renderText(_ texts: String...)
  /// Shows counter titles in order: followers, repositories, following.
  mutating func renderAttributedText(_ titles: AttributedTitle...)
  /// Shows images in order: the avatar.
  mutating func renderImage(_ urls: URL...)
}

extension Profile {
  /// Renders this profile into `context` (seed 002's `renderInContext`).
  ///
  /// - Parameter context: Where to render.
  public func render(in context: inout some RenderContext) {
    context.renderText(login, ProfileHeaderText.bio(bio))
    context.renderAttributedText(
      .counter(followers, "Followers"), .counter(publicRepos, "Repositories"),
      .counter(following, "Following"))
    context.renderImage(ProfileHeaderText.avatar(avatarURL))
  }
}

/// A headless header that is a ``RenderContext``.
public struct RenderedProfileHeader: RenderContext, Sendable {
  private var texts: [String] = []
  private var titles: [AttributedTitle] = []
  private var images: [URL] = []

  /// Creates an empty header.
  public init() {}

  /// Keeps the texts: the nickname, then the biography.
  public mutating func renderText(_ texts: String...) { self.texts = texts }
  /// Keeps the counter titles: followers, repositories, following.
  public mutating func renderAttributedText(_ titles: AttributedTitle...) { self.titles = titles }
  /// Keeps the images: the avatar.
  public mutating func renderImage(_ urls: URL...) { images = urls }

  /// What was rendered, or `nil` if any part is missing.
  public var display: ProfileHeaderDisplay? {
    guard texts.count == 2, titles.count == 3, let avatar = images.first else { return nil }
    return ProfileHeaderDisplay(
      avatarURL: avatar, nickname: texts[0], bio: texts[1], followers: titles[0],
      repositories: titles[1], following: titles[2])
  }
}

// MARK: - Style 3: a separate view model

/// Style 3 of seed 002: a view model that takes a `Profile` and outputs what the view shows.
/// The view and the model both stay reusable.
public struct ProfileHeaderViewModel: Equatable, Sendable {
  /// The avatar's address.
  public let avatarURL: URL
  /// `"N \nFollowers"`.
  public let followers: AttributedTitle
  /// `"N \nRepositories"`.
  public let repositories: AttributedTitle
  /// `"N \nFollowing"`.
  public let following: AttributedTitle
  /// The login.
  public let nickname: String
  /// The biography, or "Not set yet".
  public let bio: String

  /// Formats `input`.
  ///
  /// - Parameter input: The profile.
  public init(input: Profile) {
    avatarURL = ProfileHeaderText.avatar(input.avatarURL)
    followers = .counter(input.followers, "Followers")
    repositories = .counter(input.publicRepos, "Repositories")
    following = .counter(input.following, "Following")
    nickname = input.login
    bio = ProfileHeaderText.bio(input.bio)
  }

  /// The outputs as a display.
  public var display: ProfileHeaderDisplay {
    ProfileHeaderDisplay(
      avatarURL: avatarURL, nickname: nickname, bio: bio, followers: followers,
      repositories: repositories, following: following)
  }
}

// MARK: - Style 3, streams: Driver semantics from Tether properties

/// Style 3 built from streams, as seed 002 does with RxSwift `Driver`s: every output is a
/// Tether ``Property`` derived from the input profile, so it replays its latest value to a view
/// that binds late, never fails, and delivers on the view model's actor.
@MainActor
public final class ProfileHeaderStreamViewModel {
  /// The profile the outputs are derived from; set it when a new profile arrives.
  public let input: MutableProperty<Profile>
  /// The avatar's address.
  public let avatarURL: Property<URL>
  /// `"N \nFollowers"`.
  public let followers: Property<AttributedTitle>
  /// `"N \nRepositories"`.
  public let repositories: Property<AttributedTitle>
  /// `"N \nFollowing"`.
  public let following: Property<AttributedTitle>
  /// The login.
  public let nickname: Property<String>
  /// The biography, or "Not set yet".
  public let bio: Property<String>
  /// All outputs together, for views that redraw the header at once.
  public let display: Property<ProfileHeaderDisplay>

  /// Derives the outputs from `profile`.
  ///
  /// - Parameter profile: The first profile to show.
  public init(profile: Profile) {
    input = MutableProperty(profile)
    avatarURL = input.map { ProfileHeaderText.avatar($0.avatarURL) }
    followers = input.map { .counter($0.followers, "Followers") }
    repositories = input.map { .counter($0.publicRepos, "Repositories") }
    following = input.map { .counter($0.following, "Following") }
    nickname = input.map(\.login)
    bio = input.map { ProfileHeaderText.bio($0.bio) }
    display = input.map { ProfileHeaderViewModel(input: $0).display }
  }
}

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
  }

  private let _isLoading = MutableProperty(false)
  /// Whether the profile is loading.
  public var isLoading: Property<Bool> { _isLoading }
  private let _profile = MutableProperty<Profile?>(nil)
  /// The loaded profile, or `nil`.
  public var profile: Property<Profile?> { _profile }
  private let _errorMessage = MutableProperty<String?>(nil)
  /// Why the last load failed, or `nil`.
  public var errorMessage: Property<String?> { _errorMessage }
  private let _style = MutableProperty(Style.viewModel)
  /// The binding style shown.
  public var style: Property<Style> { _style }
  /// The header display for the loaded profile, produced by the chosen style.
  public let display: Property<ProfileHeaderDisplay?>

  private let service: any ProfileService

  /// Creates the screen's view model.
  ///
  /// - Parameter service: Where profiles come from.
  public init(service: any ProfileService) {
    self.service = service
    display = _profile.combineLatest(with: _style).map { profile, style in
      profile.flatMap { Self.display(of: $0, style: style) }
    }
  }

  /// Loads the profile of `login`.
  ///
  /// - Parameter login: The account name.
  public func load(login: String) async {
    guard !_isLoading.value else { return }
    if _errorMessage.value != nil { _errorMessage.value = nil }
    _isLoading.value = true
    do {
      _profile.value = try await service.profile(login: login)
    } catch .unexpectedStatus(404) {
      _errorMessage.value = "No profile named \"\(login)\""
    } catch {
      _errorMessage.value = error.userMessage
    }
    _isLoading.value = false
  }

  /// The user picked a binding style.
  ///
  /// - Parameter style: The style to show.
  public func userSelected(style: Style) {
    if _style.value != style { _style.value = style }
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

import ExampleSupport
import Foundation
import Tether

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

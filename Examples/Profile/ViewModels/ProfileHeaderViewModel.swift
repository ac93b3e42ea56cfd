import ExampleSupport
import Foundation
import Tether

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

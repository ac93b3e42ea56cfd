import ExampleSupport
import Foundation
import Tether

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

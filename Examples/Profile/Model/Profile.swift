import ExampleSupport
import Foundation

/// A GitHub user profile, as `GET {base}/users/{login}` returns it.
public struct Profile: Equatable, Hashable, Sendable, Codable {
  /// The account name.
  public var login: String
  /// The avatar's address.
  public var avatarURL: String
  /// The display name, when set.
  public var name: String?
  /// The biography, when set.
  public var bio: String?
  /// Public repositories.
  public var publicRepos: Int
  /// Followers.
  public var followers: Int
  /// Accounts followed.
  public var following: Int

  /// Creates a profile.
  ///
  /// - Parameters:
  ///   - login: The account name.
  ///   - avatarURL: The avatar's address.
  ///   - name: The display name.
  ///   - bio: The biography.
  ///   - publicRepos: Public repositories.
  ///   - followers: Followers.
  ///   - following: Accounts followed.
  public init(
    login: String, avatarURL: String, name: String? = nil, bio: String? = nil,
    publicRepos: Int, followers: Int, following: Int
  ) {
    self.login = login
    self.avatarURL = avatarURL
    self.name = name
    self.bio = bio
    self.publicRepos = publicRepos
    self.followers = followers
    self.following = following
  }

  enum CodingKeys: String, CodingKey {
    case login, name, bio, followers, following
    case avatarURL = "avatar_url"
    case publicRepos = "public_repos"
  }
}

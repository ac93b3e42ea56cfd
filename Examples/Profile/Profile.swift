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

/// Where profiles come from: ``BundledProfileService`` or ``HTTPProfileService``.
public protocol ProfileService: Sendable {
  /// The profile of `login`.
  ///
  /// - Parameter login: The account name.
  /// - Returns: The profile.
  /// - Throws: A ``ServiceError`` (an unknown login is `unexpectedStatus(404)`).
  func profile(login: String) async throws(ServiceError) -> Profile
}

/// The embedded profiles.
public struct BundledProfileService: ProfileService {
  /// Every bundled profile, by login.
  public static let profiles: [String: Profile] = Dictionary(
    uniqueKeysWithValues: [
      Profile(
        login: "octocat", avatarURL: "https://img.example.org/avatars/octocat.png",
        name: "The Octocat", bio: nil, publicRepos: 8, followers: 12, following: 9),
      Profile(
        login: "tether-dev", avatarURL: "https://img.example.org/avatars/tether-dev.png",
        name: "Tether", bio: "MVVM for Swift 6, everywhere Swift runs.", publicRepos: 42,
        followers: 1_280, following: 3),
      Profile(
        login: "li-na", avatarURL: "https://img.example.org/avatars/li-na.png", name: "李娜",
        bio: "写代码，拍照片。\nSwift & 摄影", publicRepos: 17, followers: 230, following: 180),
      Profile(
        login: "newcomer", avatarURL: "not a url", name: nil, bio: "", publicRepos: 0,
        followers: 0, following: 0),
    ].map { ($0.login, $0) })

  /// Creates the service.
  public init() {}

  /// The bundled profile of `login`, or `unexpectedStatus(404)`.
  public func profile(login: String) async throws(ServiceError) -> Profile {
    guard let profile = Self.profiles[login] else { throw .unexpectedStatus(404) }
    return profile
  }
}

/// Profiles from a server: `GET {base}/users/{login}`.
public struct HTTPProfileService: ProfileService {
  private let client: HTTPClient

  /// Creates a service for the server at `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: The server's root.
  ///   - timeout: The limit for one request.
  public init(baseURL: URL, timeout: Duration = .seconds(10)) {
    client = HTTPClient(baseURL: baseURL, timeout: timeout)
  }

  /// Fetches and decodes the profile of `login`.
  public func profile(login: String) async throws(ServiceError) -> Profile {
    let escaped = login.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? login
    return try await client.get("/users/\(escaped)", as: Profile.self)
  }
}

import ExampleSupport
import Foundation

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

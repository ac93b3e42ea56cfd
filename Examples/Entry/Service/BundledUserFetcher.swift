import ExampleSupport
import Foundation
import Tether

/// The embedded users, handed out in turn.
public actor BundledUserFetcher: UserFetcher {
  /// The users, in the order they are fetched.
  public static let users = ["Ada Lovelace", "Grace Hopper", "李娜", "Алексей", "Linus"].map(
    User.init)
  private var next = 0

  /// Creates a fetcher starting with the first user.
  public init() {}

  /// The next user, wrapping around.
  public func fetchUser() async throws(ServiceError) -> User {
    defer { next = (next + 1) % Self.users.count }
    return Self.users[next]
  }
}

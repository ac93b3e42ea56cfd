import ExampleSupport
import Foundation
import Tether

/// Fetches a user (seed 004's `UserFetcher`).
public protocol UserFetcher: Sendable {
  /// Fetches a user.
  ///
  /// - Returns: The user.
  /// - Throws: A ``ServiceError``.
  func fetchUser() async throws(ServiceError) -> User
}

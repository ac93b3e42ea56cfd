import ExampleSupport
import Foundation

/// Where profiles come from: ``BundledProfileService`` or ``HTTPProfileService``.
public protocol ProfileService: Sendable {
  /// The profile of `login`.
  ///
  /// - Parameter login: The account name.
  /// - Returns: The profile.
  /// - Throws: A ``ServiceError`` (an unknown login is `unexpectedStatus(404)`).
  func profile(login: String) async throws(ServiceError) -> Profile
}

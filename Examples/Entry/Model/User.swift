import ExampleSupport
import Foundation
import Tether

/// A user as `GET {base}/user` returns it.
public struct User: Equatable, Hashable, Sendable, Codable {
  /// The user's name.
  public var name: String

  /// Creates a user.
  ///
  /// - Parameter name: The user's name.
  public init(name: String) {
    self.name = name
  }
}

import ExampleSupport
import Foundation
import Tether

/// The greeting screen.
@MainActor
public final class GreetingViewModel {
  /// "Hello, <name>!".
  public let greeting: String
  /// The greeted user's name.
  public let userName: String
  /// The screen's title.
  public let title = "Greeting"

  /// Creates the greeting.
  ///
  /// - Parameter userName: Who to greet.
  public init(userName: String) {
    self.userName = userName
    greeting = "Hello, \(userName)!"
  }
}

import Entry
import TetherWeb

/// The greeting for the selected user.
@MainActor
enum GreetingScreen {
  static func view(_ greeting: GreetingViewModel) -> any WebView {
    VStack([Label(greeting.greeting, tag: "h2")])
  }
}

import Entry
import TetherWeb

/// The greeting for the selected user.
@MainActor
final class GreetingScreen: WebScreen {
  private let greeting: GreetingViewModel

  init(_ greeting: GreetingViewModel) {
    self.greeting = greeting
  }

  var body: Markup<Never> {
    vstack {
      h2 { greeting.greeting }
    }
  }
}

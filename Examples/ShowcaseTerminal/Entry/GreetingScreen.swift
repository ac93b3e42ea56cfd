import Entry
import TetherTerminal

/// The greeting for the selected user.
@MainActor
enum GreetingScreen {
  static func view(_ greeting: GreetingViewModel) -> any TerminalView {
    VStack([
      Label(""), Label(greeting.greeting, style: CellStyle(bold: true, foreground: .magenta)),
    ])
  }
}

import Entry
import TetherTerminal

/// The greeting for the selected user; `c` opens the salutation picker.
@MainActor
enum GreetingScreen {
  static func view(_ greeting: GreetingViewModel) -> any TerminalView {
    VStack([
      Label(""), Label(greeting.greeting, style: CellStyle(bold: true, foreground: .magenta)),
      Label(""),
      Button("Change salutation", key: "c") { greeting.changeSalutationRequested() },
    ])
  }
}

/// The salutation picker, in a sheet: ↑/↓ and Enter choose, Esc closes without a choice.
@MainActor
enum SalutationPickerScreen {
  static func view(_ picker: SalutationPickerViewModel) -> any TerminalView {
    ListView(rows: picker.rows) { row, _ in
      [row.isCurrent ? "\(row.text) ✓" : row.text]
    } onChoose: { index in
      picker.choose(at: index)
    }
  }
}

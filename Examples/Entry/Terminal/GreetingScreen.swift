import Entry
import TetherTerminal

/// The greeting for the selected user; `c` opens the salutation picker.
final class GreetingScreen: TerminalScreen {
  private let greeting: GreetingViewModel

  init(_ greeting: GreetingViewModel) { self.greeting = greeting }

  var body: TerminalMarkup<TerminalCall> {
    vstack {
      text("")
      text(greeting.greeting.value).bold().foreground(.magenta)
      text("")
      button("Change salutation", key: "c").onPress(greeting.changeSalutationRequested)
    }
  }
}

/// The salutation picker, in a sheet: ↑/↓ and Enter choose, Esc closes without a choice.
final class SalutationPickerScreen: TerminalScreen {
  private let picker: SalutationPickerViewModel

  init(_ picker: SalutationPickerViewModel) { self.picker = picker }

  var body: TerminalMarkup<TerminalCall> {
    list(picker.rows.value, label: "Salutations", onChoose: picker.choose(at:)) { row in
      text(row.isCurrent ? "\(row.text) ✓" : row.text)
    }
  }
}

import Entry
import TetherWeb

/// The greeting for the selected user, and the button that opens the salutation picker.
@MainActor
final class GreetingScreen: WebScreen {
  enum Action { case changeSalutation }

  private let greeting: GreetingViewModel

  init(_ greeting: GreetingViewModel) {
    self.greeting = greeting
  }

  var body: Markup<Action> {
    vstack {
      h2 { greeting.greeting.value }
      button("Change salutation…").onClick(.changeSalutation)
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .changeSalutation: greeting.changeSalutationRequested()
    }
  }
}

/// The salutation picker, shown in a sheet: a button per salutation, the one in use marked.
@MainActor
final class SalutationPickerScreen: WebScreen {
  enum Action { case choose(Int) }

  private let picker: SalutationPickerViewModel

  init(_ picker: SalutationPickerViewModel) {
    self.picker = picker
  }

  var body: Markup<Action> {
    vstack {
      for (index, row) in picker.rows.value.enumerated() {
        button(row.isCurrent ? "\(row.text) ✓" : row.text, .class("choice"))
          .onClick(.choose(index))
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .choose(let index): picker.choose(at: index)
    }
  }
}

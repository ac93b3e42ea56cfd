import Entry
import Tether
import TetherFlow
import TetherTerminal

/// Seed 004's entry: the fetched user, and buttons to fetch and to select.
@MainActor
enum EntryScreen {
  static func view(_ entry: EntryViewModel, tick: Property<Int>) -> any TerminalView {
    VStack([
      Label(entry.userText, style: bold),
      loadStatus(
        isLoading: entry.isFetching, errorMessage: entry.errorMessage,
        loadingMessage: "Fetching a user…", reloadKey: "f", tick: tick),
      Label(""),
      Button("Fetch user", key: "f", action: asyncAction { await entry.fetchRequested() }),
      Button("Select user", key: "s", isEnabled: entry.canSelect) { entry.selectRequested() },
    ])
  }
}

import Entry
import TetherFlow
import TetherWeb

/// Seed 004's entry: the fetched user, and buttons to fetch and to select.
@MainActor
enum EntryScreen {
  static func view(_ entry: EntryViewModel) -> any WebView {
    VStack([
      Label(entry.userText, tag: "h2"),
      LoadStatus(
        isLoading: entry.isFetching, errorMessage: entry.errorMessage,
        loadingMessage: "Fetching a user…", retry: asyncAction { await entry.fetchRequested() }),
      Button("Fetch user", action: asyncAction { await entry.fetchRequested() }),
      Button("Select user", isEnabled: entry.canSelect) { entry.selectRequested() },
    ])
  }
}

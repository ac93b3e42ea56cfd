import Entry
import Tether
import TetherFlow
import TetherTerminal

/// Seed 004's entry: the fetched user, and buttons to fetch and to select.
final class EntryScreen: TerminalScreen {
  private let entry: EntryViewModel
  private let tick: Property<Int>
  private let fetch: TerminalCall

  init(_ entry: EntryViewModel, tick: Property<Int>) {
    self.entry = entry
    self.tick = tick
    fetch = asyncAction { await entry.fetchRequested() }
  }

  var body: TerminalMarkup<TerminalCall> {
    vstack {
      text(entry.userText.value).bold()
      loadStatus(
        isLoading: entry.isFetching.value, errorMessage: entry.errorMessage.value,
        loadingMessage: "Fetching a user…", reloadKey: "f", tick: tick)
      text("")
      button("Fetch user", key: "f").onPress(fetch)
      button("Select user", key: "s").onPress(entry.selectRequested)
        .disabled(!entry.canSelect.value)
    }
  }
}

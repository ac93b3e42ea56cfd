import Entry
import Tether
import TetherFlow
import TetherTerminal

/// Seed 004's entry: the fetched user, and buttons to fetch and to select.
final class EntryScreen: TerminalScreen {
  enum Action { case fetch, select }
  private let entry: EntryViewModel
  private let tick: Property<Int>
  private let fetch: () -> Void

  init(_ entry: EntryViewModel, tick: Property<Int>) {
    self.entry = entry
    self.tick = tick
    fetch = asyncAction { await entry.fetchRequested() }
  }

  var body: TerminalMarkup<Action> {
    vstack {
      text(entry.userText.value).bold()
      loadStatus(
        isLoading: entry.isFetching.value, errorMessage: entry.errorMessage.value,
        loadingMessage: "Fetching a user…", reloadKey: "f", tick: tick)
      text("")
      button("Fetch user", key: "f").onPress(.fetch)
      button("Select user", key: "s").onPress(.select).disabled(!entry.canSelect.value)
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .fetch: fetch()
    case .select: entry.selectRequested()
    }
  }
}

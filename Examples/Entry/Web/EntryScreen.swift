import Entry
import TetherFlow
import TetherWeb

/// Seed 004's entry: the fetched user, and buttons to fetch and to select.
@MainActor
final class EntryScreen: WebScreen {
  enum Action { case fetch, select }

  private let entry: EntryViewModel
  private let fetch: () -> Void

  init(_ entry: EntryViewModel) {
    self.entry = entry
    fetch = asyncAction { await entry.fetchRequested() }
  }

  var body: Markup<Action> {
    vstack {
      h2 { entry.userText.value }
      loadStatus(
        isLoading: entry.isFetching.value, errorMessage: entry.errorMessage.value,
        loadingMessage: "Fetching a user…", retry: .fetch)
      button("Fetch user").onClick(.fetch)
      button("Select user", .disabled(!entry.canSelect.value)).onClick(.select)
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .fetch: fetch()
    case .select: entry.selectRequested()
    }
  }
}

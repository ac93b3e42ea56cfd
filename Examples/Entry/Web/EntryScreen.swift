import Entry
import TetherFlow
import TetherWeb

/// Seed 004's entry: the fetched user, and buttons to fetch and to select.
@MainActor
final class EntryScreen: WebScreen {
  enum Action { case fetch, select }

  private let entry: EntryViewModel
  private let fetch: () -> Void
  private let status: LoadStatus

  init(_ entry: EntryViewModel) {
    self.entry = entry
    fetch = asyncAction { await entry.fetchRequested() }
    status = LoadStatus(
      isLoading: entry.isFetching, errorMessage: entry.errorMessage,
      loadingMessage: "Fetching a user…", retry: fetch)
  }

  var body: Markup<Action> {
    vstack {
      h2 { entry.userText.value }
      status
      button("Fetch user").onClick(.fetch)
      button("Select user", .disabled(!entry.canSelect.value)).onClick(.select)
    }
  }

  func handle(_ action: Action, gesture: WebGesture?) {
    switch action {
    case .fetch: fetch()
    case .select: entry.selectRequested()
    }
  }
}

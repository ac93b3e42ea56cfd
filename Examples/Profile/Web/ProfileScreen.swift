import Profile
import Tether
import TetherFlow
import TetherWeb

/// The Profile header, drawn from whichever binding style is chosen (they all agree).
@MainActor
final class ProfileScreen: WebScreen {
  enum Action {
    case choose(ProfileScreenViewModel.Style)
    case next, retry
  }

  private let screen: ProfileScreenViewModel
  private let next: () -> Void
  private let reload: () -> Void

  init(_ screen: ProfileScreenViewModel) {
    self.screen = screen
    next = asyncAction { await screen.nextProfileRequested() }
    reload = asyncAction { await screen.reloadRequested() }
  }

  var body: Markup<Action> {
    vstack {
      tabList(screen.styles, selected: screen.style, label: "Binding style") {
        $0.rawValue
      } action: {
        .choose($0)
      }
      p(.class("dim")) { "Every binding style renders the same header." }
      button("Next profile").onClick(.next)
      loadStatus(
        isLoading: screen.isLoading.value, errorMessage: screen.errorMessage.value,
        loadingMessage: "Loading profile…", retry: .retry)
      let display = screen.display.value
      h2 { display.map { "@\($0.nickname)" } ?? "" }
      p { display?.bio ?? "" }
      p(.class("dim")) {
        display.map { display in
          [display.followers, display.repositories, display.following].map(\.singleLine)
            .joined(separator: " · ")
        } ?? ""
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .choose(let style): screen.userSelected(style: style)
    case .next: next()
    case .retry: reload()
    }
  }
}

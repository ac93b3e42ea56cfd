import Profile
import Tether
import TetherFlow
import TetherWeb

/// The Profile header, drawn from whichever binding style is chosen (they all agree).
@MainActor
enum ProfileScreen {
  static func view(_ screen: ProfileScreenViewModel) -> any WebView {
    let styleButtons = screen.styles.map { style in
      Button(style.rawValue, isEnabled: screen.$style.map { $0 != style }) {
        screen.userSelected(style: style)
      }
    }
    return VStack(
      [Label("Binding style (every style renders the same header):", className: "dim")]
        + styleButtons
        + [
          Button("Next profile", action: asyncAction { await screen.nextProfileRequested() }),
          LoadStatus(
            isLoading: screen.isLoading, errorMessage: screen.errorMessage,
            loadingMessage: "Loading profile…",
            retry: asyncAction { await screen.reloadRequested() }),
          Label(screen.display.map { $0.map { "@\($0.nickname)" } ?? "" }, tag: "h2"),
          Label(screen.display.map { $0?.bio ?? "" }),
          Label(
            screen.display.map { display in
              guard let display else { return "" }
              return [display.followers, display.repositories, display.following]
                .map(\.singleLine)
                .joined(separator: " · ")
            }, className: "dim"),
        ])
  }
}

import Profile
import Tether
import TetherFlow
import TetherTerminal

/// The Profile header, drawn from whichever binding style is chosen (they all agree).
@MainActor
enum ProfileScreen {
  static func view(_ screen: ProfileScreenViewModel, tick: Property<Int>) -> any TerminalView {
    let styles = screen.styles
    let titles = styles.enumerated().map { index, style in "\(index + 1) \(style.rawValue)" }
    let selected = screen.$style.map { styles.firstIndex(of: $0) ?? 0 }
    var keys: [Key: () -> Void] = [
      .character("n"): asyncAction { await screen.nextProfileRequested() },
      .character("r"): asyncAction { await screen.reloadRequested() },
    ]
    for (index, style) in styles.enumerated() {
      keys[.character(Character("\(index + 1)"))] = { screen.userSelected(style: style) }
    }
    return Screenful(
      VStack([
        TabBar(titles, selected: selected),
        Label(
          "1-4 switch style · n next profile · every style renders the same header", style: dim),
        Label(""),
        loadStatus(
          isLoading: screen.isLoading, errorMessage: screen.errorMessage,
          loadingMessage: "Loading profile…", tick: tick),
        Label(screen.display.map(headerText), wraps: true),
      ]),
      keys: keys)
  }

  /// The header as lines: nickname, bio, the three counters, the avatar's address.
  private static func headerText(_ display: ProfileHeaderDisplay?) -> String {
    guard let display else { return "" }
    return [
      "@\(display.nickname)",
      display.bio,
      "",
      [display.followers, display.repositories, display.following]
        .map(\.singleLine).joined(separator: "   "),
      "Avatar: \(display.avatarURL.absoluteString)",
    ].joined(separator: "\n")
  }
}

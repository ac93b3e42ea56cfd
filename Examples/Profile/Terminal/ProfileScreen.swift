import Profile
import Tether
import TetherFlow
import TetherTerminal

/// The Profile header, drawn from whichever binding style is chosen (they all agree). The
/// styles are tabs: ← and → while they have focus, or 1–4 from anywhere.
final class ProfileScreen: TerminalScreen {
  enum Action { case style(Int), next, reload }
  private let profile: ProfileScreenViewModel
  private let tick: Property<Int>
  private let next: () -> Void
  private let reload: () -> Void

  init(_ profile: ProfileScreenViewModel, tick: Property<Int>) {
    self.profile = profile
    self.tick = tick
    next = asyncAction { await profile.nextProfileRequested() }
    reload = asyncAction { await profile.reloadRequested() }
  }

  var body: TerminalMarkup<Action> {
    let styles = profile.styles
    var markup: TerminalMarkup<Action> = vstack {
      tabs(
        styles.enumerated().map { "\($0.offset + 1) \($0.element.rawValue)" },
        selected: styles.firstIndex(of: profile.style) ?? 0, label: "Binding style"
      ) { .style($0) }
      text("1-4 switch style · n next profile · every style renders the same header").dim()
      text("")
      loadStatus(
        isLoading: profile.isLoading.value, errorMessage: profile.errorMessage.value,
        loadingMessage: "Loading profile…", tick: tick)
      text(Self.headerText(profile.display.value), wraps: true)
    }
    .onKey("n", .next).onKey("r", .reload)
    for index in styles.indices {
      markup = markup.onKey(Character("\(index + 1)"), .style(index))
    }
    return markup
  }

  func handle(_ action: Action) {
    switch action {
    case .style(let index):
      if profile.styles.indices.contains(index) {
        profile.userSelected(style: profile.styles[index])
      }
    case .next: next()
    case .reload: reload()
    }
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

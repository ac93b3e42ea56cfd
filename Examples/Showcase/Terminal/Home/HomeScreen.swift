import ShowcaseFlows
import TetherTerminal

/// The home menu: one two-line row per app.
@MainActor
enum HomeScreen {
  static func view(_ home: HomeViewModel) -> any TerminalView {
    VStack([
      Label("Five MVVM articles, one toolkit. Choose an app:", style: dim, wraps: true),
      Label(""),
      ListView(rows: home.rows, rowHeight: 2, format: { row, _ in [row.title, row.summary] }) {
        home.userSelected(row: $0)
      },
    ])
  }
}

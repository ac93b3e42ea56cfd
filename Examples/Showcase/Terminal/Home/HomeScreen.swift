import ShowcaseFlows
import TetherTerminal

/// The home menu: one two-line row per app.
final class HomeScreen: TerminalScreen {
  private let home: HomeViewModel

  init(_ home: HomeViewModel) { self.home = home }

  var body: TerminalMarkup<TerminalCall> {
    vstack(spacing: 1) {
      text("Five MVVM articles, one toolkit. Choose an app:", wraps: true).dim()
      list(home.rows.value, label: "Apps", rowHeight: 2, onChoose: home.userSelected(row:)) { row in
        text(row.title)
        text(row.summary).dim()
      }
    }
  }
}

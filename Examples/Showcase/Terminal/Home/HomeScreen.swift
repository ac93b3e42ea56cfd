import ShowcaseFlows
import TetherTerminal

/// The home menu: one two-line row per app.
final class HomeScreen: TerminalScreen {
  enum Action { case choose(Int) }
  private let home: HomeViewModel

  init(_ home: HomeViewModel) { self.home = home }

  var body: TerminalMarkup<Action> {
    vstack(spacing: 1) {
      text("Five MVVM articles, one toolkit. Choose an app:", wraps: true).dim()
      list(home.rows.value, label: "Apps", rowHeight: 2, onChoose: { .choose($0) }) { row in
        text(row.title)
        text(row.summary).dim()
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .choose(let row): home.userSelected(row: row)
    }
  }
}

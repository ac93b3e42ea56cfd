import ShowcaseFlows
import Tether
import TetherWeb

/// The home menu: one row per app.
@MainActor
final class HomeScreen: WebScreen {
  private let rows: ListView<HomeViewModel.Row>

  init(_ home: HomeViewModel) {
    rows = ListView(rows: home.rows, onChoose: { home.userSelected(row: $0) }) { row in
      span(.class("title")) { row.title }
      span(.class("detail")) { row.summary }
    }
  }

  var embeddedViews: [any WebView] { [rows] }

  var body: Markup<Never> {
    vstack {
      p(.class("dim")) { "Five MVVM articles, one toolkit. Choose an app:" }
      rows
    }
  }
}

import ShowcaseFlows
import Tether
import TetherWeb

/// The home menu: one row per app.
@MainActor
final class HomeScreen: WebScreen {
  enum Action { case choose(Int) }

  private let home: HomeViewModel

  init(_ home: HomeViewModel) {
    self.home = home
  }

  var body: Markup<Action> {
    vstack {
      p(.class("dim")) { "Five MVVM articles, one toolkit. Choose an app:" }
      list(home.rows.value, onChoose: { .choose($0) }) { row in
        span(.class("title")) { row.title }
        span(.class("detail")) { row.summary }
      }
    }
  }

  func handle(_ action: Action) {
    switch action {
    case .choose(let row): home.userSelected(row: row)
    }
  }
}
